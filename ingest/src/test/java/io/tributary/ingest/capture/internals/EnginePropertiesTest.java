package io.tributary.ingest.capture.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.ingest.capture.IngestConfig;
import io.tributary.ingest.capture.TableSelection;
import io.tributary.postgres.PgEndpoint;
import io.tributary.source.encoding.DebeziumDecodingSettings;
import io.tributary.topics.TopicLayout;
import io.tributary.topics.TopicNames;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EnginePropertiesTest {

    @Test
    void theSourceUrlBecomesHostPortDatabaseAndTls() {
        Properties props = EngineProperties.of(config("jdbc:postgresql://db.example:6543/app?sslmode=require"));

        assertThat(props).containsEntry("database.hostname", "db.example").containsEntry("database.port", "6543")
            .containsEntry("database.dbname", "app").containsEntry("database.sslmode", "require")
            .containsEntry("database.user", "ingest").containsEntry("database.password", "secret");
    }

    @Test
    void theDefaultPortIs5432() {
        assertThat(EngineProperties.of(config("jdbc:postgresql://db/app"))).containsEntry("database.port", "5432");
    }

    @Test
    void streamingOnlyFromTheManagedSlotAndPublicationWithTransactionMetadataAndTruncates() {
        Properties props = EngineProperties.of(config("jdbc:postgresql://db/app"));

        assertThat(props).containsEntry("plugin.name", "pgoutput").containsEntry("snapshot.mode", "configuration_based")
            .containsEntry("snapshot.mode.configuration.based.snapshot.schema", "false")
            .containsEntry("snapshot.mode.configuration.based.snapshot.data", "false")
            .containsEntry("snapshot.mode.configuration.based.start.stream", "true")
            .containsEntry("slot.name", "tributary").containsEntry("publication.name", "tributary_pub")
            .containsEntry("publication.autocreate.mode", "disabled")
            .containsEntry("database.connection.factory.class", StreamingCatalogConnections.class.getName())
            .containsEntry("connector.class", UnmeteredPostgresConnector.class.getName())
            .containsEntry("provide.transaction.metadata", "true").containsEntry("skipped.operations", "none")
            .containsEntry("tombstones.on.delete", "false")
            .containsEntry("message.prefix.include.list", "tributary\\.window")
            .containsEntry("offset.storage", IngestOffsetStore.class.getName())
            .containsEntry("offset.storage.topic", "t.ingest-offsets")
            .containsEntry("name", "tributary-ingest-tributary")
            .containsEntry("bootstrap.servers", "k:9092");
        assertThat(props.getProperty("heartbeat.action.query")).contains("pg_logical_emit_message(true,");
    }

    @Test
    void theSourceModulesDecodingSettingsWin() {
        Properties props = EngineProperties.of(config("jdbc:postgresql://db/app"));

        DebeziumDecodingSettings.properties().forEach((k, v) -> assertThat(props).containsEntry(k, v));
    }

    @Test
    void aUrlWithoutDatabaseIsRejectedWhenConfigured() {
        assertThatThrownBy(() -> config("jdbc:postgresql://db:5432/"))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("jdbc:postgresql://db:5432/");
    }

    private static IngestConfig config(String url) {
        return IngestConfig.of(PgEndpoint.of(url, "ingest", "secret"), "tributary", "tributary_pub",
            TopicNames.withPrefix("t."), TopicLayout.of(3, 1, (short) 1), Map.of("bootstrap.servers", "k:9092"),
            TableSelection.of(Set.of()));
    }
}
