package io.tributary.launcher.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {

    @TempDir
    Path dir;

    @Test
    void noFileMeansTheEmbeddedDefault() {
        TributaryConfig config = ConfigLoader.load(Optional.empty(), Map.of());

        assertThat(config.source()).isEmpty();
        assertThat(config.storage()).isEmpty();
        assertThat(config.kafka().bootstrapServers()).isEmpty();
        assertThat(config.kafka().topicPrefix()).isEqualTo("tributary.");
        assertThat(config.replication().workersPerProcess()).isEqualTo(2);
    }

    @Test
    void readsNestedAndDottedKeysAndResolvesPathsAgainstTheFile() throws IOException {
        Path file = write("source:\n  url: jdbc:postgresql://db:5432/app?sslmode=require\n  password: hunter2\n"
            + "kafka.bootstrap_servers: broker:9092\n"
            + "kafka:\n  properties:\n    security.protocol: SASL_SSL\n"
            + "sync_rules: rules/sync.yaml\n"
            + "replication:\n  workers_per_process: 6\n");

        TributaryConfig config = ConfigLoader.load(Optional.of(file), Map.of());

        assertThat(config.source()).get().extracting(JdbcEndpoint::url)
            .isEqualTo("jdbc:postgresql://db:5432/app?sslmode=require");
        assertThat(config.source().orElseThrow().password().value()).isEqualTo("hunter2");
        assertThat(config.kafka().bootstrapServers()).contains("broker:9092");
        assertThat(config.kafka().clientProperties()).containsEntry("security.protocol", "SASL_SSL");
        assertThat(config.syncRules()).contains(dir.resolve("rules/sync.yaml"));
        assertThat(config.replication().workersPerProcess()).isEqualTo(6);
    }

    @Test
    void environmentOverridesTheFile() throws IOException {
        Path file = write("storage:\n  url: jdbc:postgresql://a/b\n");

        TributaryConfig config = ConfigLoader.load(Optional.of(file), Map.of(
            "TRIBUTARY_STORAGE_URL", "jdbc:postgresql://c/d",
            "TRIBUTARY_KAFKA_PROPERTIES_SASL_MECHANISM", "SCRAM-SHA-512",
            "TRIBUTARY_TEST_POSTGRES_URL", "ignored: belongs to the test fixture",
            "TRIBUTARY_JAVA_OPTS", "-Xmx2g",
            "TRIBUTARY_LOG_LEVEL", "DEBUG"));

        assertThat(config.storage().orElseThrow().url()).isEqualTo("jdbc:postgresql://c/d");
        assertThat(config.kafka().clientProperties()).containsEntry("sasl.mechanism", "SCRAM-SHA-512");
    }

    @Test
    void everyBadKeyIsReportedWithWhereItCameFrom() throws IOException {
        Path file = write("sourse:\n  url: x\nreplication:\n  workers_per_process: many\nmetrics.port: 70000\n");

        assertThatThrownBy(() -> ConfigLoader.load(Optional.of(file), Map.of("TRIBUTARY_KAFKA_PARTITONS", "3")))
            .isInstanceOf(ConfigException.class)
            .satisfies(e -> assertThat(((ConfigException) e).problems()).hasSize(4))
            .hasMessageContaining("sourse.url (config.yaml line 2): unknown key; did you mean 'source.url'?")
            .hasMessageContaining("replication.workers_per_process (config.yaml line 4): expected an integer")
            .hasMessageContaining("metrics.port (config.yaml line 5): expected a port 0-65535")
            .hasMessageContaining("TRIBUTARY_KAFKA_PARTITONS: not a Tributary setting; did you mean "
                + "'kafka.partitions'?");
    }

    @Test
    void secretsNeverAppearInMessages() throws IOException {
        Path file = write("source:\n  url: not-a-jdbc-url\n  password: hunter2\n");

        assertThatThrownBy(() -> ConfigLoader.load(Optional.of(file), Map.of()))
            .hasMessageContaining("source.url")
            .hasMessageNotContaining("hunter2");
        assertThat(new Secret("hunter2").toString()).isEqualTo("****");
    }

    @Test
    void malformedYamlNamesLineAndColumn() throws IOException {
        Path file = write("source:\n  url: [unclosed\n");

        assertThatThrownBy(() -> ConfigLoader.load(Optional.of(file), Map.of()))
            .isInstanceOf(ConfigException.class)
            .hasMessageContaining("line 3")
            .hasMessageContaining("not valid YAML");
    }

    @Test
    void aMissingFileSaysWhichPath() {
        Path missing = dir.resolve("nope.yaml");

        assertThatThrownBy(() -> ConfigLoader.load(Optional.of(missing), Map.of()))
            .hasMessageContaining(missing.toString())
            .hasMessageContaining("--config");
    }

    @Test
    void clientAuthReadsInlineKeysAndAudiencesFromYamlLists() throws IOException {
        Path file = write("api:\n  port: 9999\nclient_auth:\n  audience: [app, admin]\n  jwks:\n    keys:\n"
            + "      - kty: oct\n        alg: HS256\n        kid: dev\n"
            + "        k: c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA\n");

        TributaryConfig config = ConfigLoader.load(Optional.of(file), Map.of());

        assertThat(config.api().port()).isEqualTo(9999);
        assertThat(config.api().auth().audience()).containsExactlyInAnyOrder("app", "admin");
        assertThat(config.api().auth().keys().getKeyByKeyId("dev")).isNotNull();
        assertThat(config.api().auth().hasKeys()).isTrue();
    }

    @Test
    void inlineKeysThatAreNotJwksAreRejectedNamingTheKey() throws IOException {
        Path file = write("client_auth:\n  jwks:\n    keys:\n      - kty: nonsense\n");

        assertThatThrownBy(() -> ConfigLoader.load(Optional.of(file), Map.of())).isInstanceOf(ConfigException.class)
            .hasMessageContaining("client_auth.jwks.keys").hasMessageContaining("JWK objects");
    }

    @Test
    void theApiDefaultsToPort8080WithoutKeys() {
        TributaryConfig config = ConfigLoader.load(Optional.empty(), Map.of());

        assertThat(config.api().port()).isEqualTo(8080);
        assertThat(config.api().auth().hasKeys()).isFalse();
        assertThat(config.api().auth().maxLifetime().toSeconds()).isEqualTo(86_400);
    }

    private Path write(String yaml) throws IOException {
        Path file = dir.resolve("config.yaml");
        Files.writeString(file, yaml);
        return file;
    }
}
