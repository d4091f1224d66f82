package io.tributary.launcher.config;

import io.tributary.launcher.config.ConfigKey.Rule;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Every configuration key the launcher accepts, declared once. */
final class ConfigKeys {

    /** Keys under this prefix pass through to every Kafka client unchanged (TLS, SASL, timeouts ...). */
    static final String KAFKA_PROPERTIES_PREFIX = "kafka.properties.";

    static final ConfigKey SOURCE_URL = optional("source.url", Rule.jdbcPostgres(),
        "JDBC URL of the source database (sslmode and friends go in the URL); absent = embedded Postgres");
    static final ConfigKey SOURCE_USER = key("source.user", "postgres", Rule.ANY,
        "source user; needs REPLICATION (or superuser) and SELECT on the replicated tables");
    static final ConfigKey SOURCE_PASSWORD = secret("source.password", "source user's password");
    static final ConfigKey STORAGE_URL = optional("storage.url", Rule.jdbcPostgres(),
        "JDBC URL of the bucket storage database; absent = embedded Postgres");
    static final ConfigKey STORAGE_USER = key("storage.user", "postgres", Rule.ANY, "storage user (owns the schema)");
    static final ConfigKey STORAGE_PASSWORD = secret("storage.password", "storage user's password");
    static final ConfigKey KAFKA_BOOTSTRAP = optional("kafka.bootstrap_servers", Rule.ANY,
        "Kafka bootstrap servers (host:port,...); absent = embedded Kafka");
    static final ConfigKey KAFKA_TOPIC_PREFIX = key("kafka.topic_prefix", "tributary.", Rule.topicPrefix(),
        "prefix of every topic and consumer group name, so several deployments share a cluster");
    static final ConfigKey KAFKA_PARTITIONS = integer("kafka.partitions", 8, Rule.positive(),
        "partitions of changes, snapshot-rows and rows (co-partitioned): the ceiling of stream and storage "
            + "parallelism");
    static final ConfigKey KAFKA_REPLICATION_FACTOR = integer("kafka.replication_factor", 1, Rule.positive(),
        "replication factor of the topics Tributary creates (use 3 in production)");
    static final ConfigKey KAFKA_ROWS_TOMBSTONE_RETENTION = integer("kafka.rows_tombstone_retention_hours", 168,
        Rule.positive(), "delete.retention.ms of rows, in hours: how long a delete stays in the compacted table log;"
            + " a storage writer stopped longer than this must be replaced (run detects it)");
    static final ConfigKey EMBEDDED_DATA_DIR = optional("embedded.data_dir", Rule.ANY,
        "folder where embedded Kafka and Postgres keep their data between runs; absent = tributary-data beside the"
            + " config file (or in the working directory without one)");
    static final ConfigKey SYNC_RULES = optional("sync_rules", Rule.ANY,
        "path of the sync rules YAML; `run` deploys it at start when it differs from the newest group");
    static final ConfigKey WORKERS_PER_PROCESS = integer("replication.workers_per_process", 2, Rule.positive(),
        "concurrent work loops per process (snapshot chunk readers, stream and storage threads)");
    static final ConfigKey SNAPSHOT_CHUNK_ROWS = integer("replication.snapshot.chunk_rows", 20_000, Rule.positive(),
        "target rows per snapshot chunk");
    static final ConfigKey SNAPSHOT_MAX_READS = integer("replication.snapshot.max_concurrent_reads", 4,
        Rule.positive(), "cap on concurrent chunk reads against the source, per process");
    static final ConfigKey SOURCE_SOCKET_TIMEOUT = integer("replication.snapshot.socket_timeout_seconds", 0,
        new Rule(value -> (Integer) value >= 0, "seconds >= 0 (0 = none)"),
        "socket timeout of snapshot connections; slow storage is backpressure, never a timeout");
    static final ConfigKey SLOT_NAME = key("replication.slot_name", "tributary", Rule.identifier(),
        "logical replication slot on the source");
    static final ConfigKey SLOT_WAL_WARNING_MB = integer("replication.slot_wal_warning_mb", 1024, Rule.positive(),
        "WAL (MiB) the replication slot may keep on the source's disk before a run warns (log, /health/ready)");
    static final ConfigKey PUBLICATION_NAME = key("replication.publication_name", "tributary", Rule.identifier(),
        "publication on the source listing the captured tables");
    static final ConfigKey WRITER_BATCH_ROWS = integer("storage.batch_rows", 5_000, Rule.positive(),
        "records per storage write transaction");
    static final ConfigKey STARTUP_WAIT = integer("startup.wait_seconds", 120,
        new Rule(value -> (Integer) value >= 0, "seconds >= 0 (0 = fail at once)"),
        "how long `run` waits at start for Kafka, source and storage that do not answer yet (refused, restarting, "
            + "timing out) before it exits 4; wrong credentials and missing databases fail at once");
    static final ConfigKey METRICS_PORT = integer("metrics.port", 9464, Rule.port(),
        "port of /metrics (Prometheus), /health/live and /health/ready; 0 = off");

    static final ConfigKey COMPACTION_INTERVAL = integer("compaction.interval_seconds", 0,
        new Rule(value -> (Integer) value >= 0, "seconds >= 0 (0 = off)"),
        "how often `run` compacts the bucket storage of every ACTIVE group up to its checkpoint; 0 = never "
            + "(`tributary compact` on demand)");
    static final ConfigKey COMPACTION_BATCH_OPS = integer("compaction.batch_ops", 5_000, Rule.positive(),
        "ops (and parameter lookup versions) compaction reads per page, rewrites per statement and folds per "
            + "transaction");
    static final ConfigKey COMPACTION_PASS_OPS = integer("compaction.pass_ops", 1_000_000, Rule.positive(),
        "most bucket ops one background compaction pass of a group reads; the next pass goes on where it stopped "
            + "(`tributary compact` visits every bucket once)");

    static final ConfigKey API_PORT = integer("api.port", 8080, Rule.port(),
        "port of the sync API (POST /sync/stream, GET /write-checkpoint2.json); 0 = off");
    static final ConfigKey API_HOST = key("api.host", "0.0.0.0", Rule.ANY,
        "interface the sync API listens on (0.0.0.0 = all)");
    static final ConfigKey API_MAX_STREAMS = integer("api.max_streams", 1000, Rule.positive(),
        "most concurrent sync streams per process (one thread each); more get 503 and retry");
    static final ConfigKey API_STORAGE_CONNECTIONS = integer("api.storage_connections", 8, Rule.positive(),
        "storage connections the sync streams of a process share");
    static final ConfigKey API_ACCEPT_QUEUE = integer("api.accept_queue", 4_096, Rule.positive(),
        "listen backlog of the sync API: connections the kernel queues before the server accepts them (a burst of "
            + "reconnecting clients beyond it is refused; the kernel caps it at net.core.somaxconn)");
    static final ConfigKey CLIENT_AUTH_JWKS_URI = optional("client_auth.jwks_uri", Rule.httpUri(),
        "URL of a JWKS document with the keys client tokens are signed with (cached; refetched for an unknown kid)");
    static final ConfigKey CLIENT_AUTH_JWKS_KEYS = optional("client_auth.jwks.keys", Rule.jwks(),
        "inline JWK objects (a YAML list, or JSON text in the environment); kty oct keys sign development tokens");
    static final ConfigKey CLIENT_AUTH_AUDIENCE = key("client_auth.audience", "tributary-dev", Rule.ANY,
        "accepted aud values of client tokens (a YAML list or comma-separated)");
    static final ConfigKey CLIENT_AUTH_MAX_LIFETIME = integer("client_auth.max_lifetime_seconds", 86_400,
        Rule.positive(), "longest accepted token lifetime (exp - iat), seconds");

    static final List<ConfigKey> ALL = List.of(SOURCE_URL, SOURCE_USER, SOURCE_PASSWORD, STORAGE_URL, STORAGE_USER,
        STORAGE_PASSWORD, KAFKA_BOOTSTRAP, KAFKA_TOPIC_PREFIX, KAFKA_PARTITIONS, KAFKA_REPLICATION_FACTOR,
        KAFKA_ROWS_TOMBSTONE_RETENTION, EMBEDDED_DATA_DIR, SYNC_RULES,
        WORKERS_PER_PROCESS, SNAPSHOT_CHUNK_ROWS, SNAPSHOT_MAX_READS, SOURCE_SOCKET_TIMEOUT, SLOT_NAME,
        SLOT_WAL_WARNING_MB, PUBLICATION_NAME, WRITER_BATCH_ROWS, STARTUP_WAIT, METRICS_PORT, COMPACTION_INTERVAL,
        COMPACTION_BATCH_OPS, COMPACTION_PASS_OPS, API_PORT, API_HOST, API_MAX_STREAMS, API_STORAGE_CONNECTIONS,
        API_ACCEPT_QUEUE, CLIENT_AUTH_JWKS_URI,
        CLIENT_AUTH_JWKS_KEYS, CLIENT_AUTH_AUDIENCE,
        CLIENT_AUTH_MAX_LIFETIME);

    static final Map<String, ConfigKey> BY_NAME = byName();

    private ConfigKeys() {
    }

    private static Map<String, ConfigKey> byName() {
        Map<String, ConfigKey> map = new LinkedHashMap<>();
        for (ConfigKey key : ALL) {
            if (map.put(key.name(), key) != null) {
                throw new AssertionError("Config key declared twice: " + key.name());
            }
        }
        return Map.copyOf(map);
    }

    private static ConfigKey key(String name, String defaultValue, Rule rule, String doc) {
        return new ConfigKey(name, ValueType.STRING, Optional.of(defaultValue), rule, false, doc);
    }

    private static ConfigKey optional(String name, Rule rule, String doc) {
        return new ConfigKey(name, ValueType.STRING, Optional.empty(), rule, false, doc);
    }

    private static ConfigKey secret(String name, String doc) {
        return new ConfigKey(name, ValueType.STRING, Optional.of(""), Rule.ANY, true, doc);
    }

    private static ConfigKey integer(String name, int defaultValue, Rule rule, String doc) {
        return new ConfigKey(name, ValueType.INTEGER, Optional.of(Integer.toString(defaultValue)), rule, false, doc);
    }
}
