package io.tributary.ingest.capture.internals;

import io.tributary.ingest.capture.IngestConfig;
import io.tributary.postgres.PgEndpoint;
import io.tributary.source.encoding.DebeziumDecodingSettings;
import java.util.Map;
import java.util.Properties;

/**
 * The Debezium Embedded configuration of ingest: the Postgres connector on pgoutput, streaming only (no table's
 * structure read at start, by its snapshot or by its streaming: tables are learnt from pgoutput's relation
 * messages), the slot and publication ingest manages itself, transaction metadata (BEGIN/END with the commit
 * position), heartbeats that write a WAL message so an idle source still advances, the planner's window messages,
 * truncations, no tombstones, offsets in Kafka ({@code ingest-offsets}), engine errors surfaced to the supervisor
 * instead of retried inside Debezium, and the source module's decoding settings, applied last so nothing overrides
 * them.
 */
public final class EngineProperties {

    /** The logical decoding message prefix of the heartbeat action. */
    public static final String HEARTBEAT_PREFIX = "tributary.heartbeat";
    /** Debezium's topic prefix: only in the names of records handed to the batch handler, never written. */
    static final String TOPIC_PREFIX = "tributary_ingest";

    /** JDBC URL parameters the connector needs too, and its names for them. */
    private static final Map<String, String> URL_PARAMETERS = Map.of(
        "sslmode", "database.sslmode",
        "sslrootcert", "database.sslrootcert",
        "sslcert", "database.sslcert",
        "sslkey", "database.sslkey",
        "sslpassword", "database.sslpassword");

    private EngineProperties() {
    }

    /** The engine properties for {@code config}. */
    public static Properties of(IngestConfig config) {
        Properties props = new Properties();
        props.setProperty("name", config.engineName());
        props.setProperty("connector.class", UnmeteredPostgresConnector.class.getName());
        props.setProperty("tasks.max", "1");
        props.setProperty("offset.storage", IngestOffsetStore.class.getName());
        props.setProperty("offset.storage.topic", config.topics().ingestOffsets());
        props.setProperty("offset.storage.partitions", "1");
        props.setProperty("offset.storage.replication.factor", Short.toString(config.layout().replicationFactor()));
        props.setProperty("offset.flush.interval.ms", Long.toString(config.offsetFlushInterval().toMillis()));
        props.setProperty("offset.flush.timeout.ms", "60000");
        config.kafkaProperties().forEach(props::setProperty);
        database(config, props);
        props.setProperty("topic.prefix", TOPIC_PREFIX);
        props.setProperty("plugin.name", "pgoutput");
        props.setProperty("slot.name", config.slotName());
        props.setProperty("publication.name", config.publicationName());
        props.setProperty("publication.autocreate.mode", "disabled");
        // Streaming only, and no table structure read at start: Debezium would read the catalog of every table of
        // the database (a metadata query per schema and per table, minutes for thousands of tables) while holding a
        // transaction that window markers wait for. It learns each table from pgoutput's relation message, sent
        // before a table's first change in the stream, as it does for a table created while it runs.
        props.setProperty("snapshot.mode", "configuration_based");
        props.setProperty("snapshot.mode.configuration.based.snapshot.schema", "false");
        props.setProperty("snapshot.mode.configuration.based.snapshot.data", "false");
        props.setProperty("snapshot.mode.configuration.based.start.stream", "true");
        // Nor when streaming starts: Debezium's connections list no tables, so its start-up read of every table's
        // key and replica identity finds none (see StreamingCatalogConnections).
        props.setProperty("database.connection.factory.class", StreamingCatalogConnections.class.getName());
        props.setProperty("provide.transaction.metadata", "true");
        props.setProperty("skipped.operations", "none");
        props.setProperty("tombstones.on.delete", "false");
        props.setProperty("message.prefix.include.list", ChangeDecoder.WINDOW_PREFIX.replace(".", "\\."));
        props.setProperty("heartbeat.interval.ms", Long.toString(config.heartbeatInterval().toMillis()));
        props.setProperty("heartbeat.action.query",
            "SELECT pg_logical_emit_message(true, '" + HEARTBEAT_PREFIX + "', '')");
        props.setProperty("max.batch.size", Integer.toString(config.maxBatchSize()));
        props.setProperty("max.queue.size", Integer.toString(config.maxBatchSize() * 4));
        props.setProperty("poll.interval.ms", "50");
        props.setProperty("slot.max.retries", "1");
        props.setProperty("slot.retry.delay.ms", "1000");
        props.setProperty("errors.max.retries", "0");
        props.setProperty("schema.history.internal", "io.debezium.relational.history.MemorySchemaHistory");
        DebeziumDecodingSettings.properties().forEach(props::setProperty);
        return props;
    }

    private static void database(IngestConfig config, Properties props) {
        PgEndpoint source = config.source();
        props.setProperty("database.hostname", source.host());
        props.setProperty("database.port", Integer.toString(source.port()));
        props.setProperty("database.dbname", source.database());
        props.setProperty("database.user", source.user());
        props.setProperty("database.password", source.password());
        source.parameters().forEach((name, value) -> passThrough(name, value, props));
    }

    private static void passThrough(String name, String value, Properties props) {
        String key = URL_PARAMETERS.get(name);
        if (key != null) {
            props.setProperty(key, value);
        }
    }
}
