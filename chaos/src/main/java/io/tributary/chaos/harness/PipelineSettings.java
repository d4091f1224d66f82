package io.tributary.chaos.harness;

import io.tributary.postgres.PgEndpoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * How the pipeline's processes are configured: the services they talk to, the topic prefix and partitions, the
 * replication slot, the sync rules file the ingest deploys, and extra {@code TRIBUTARY_*} variables. Immutable;
 * the {@code with*} methods return modified copies (e.g. to point one role at a fault-injecting proxy).
 *
 * @param jar         the runnable {@code tributary.jar}
 * @param kafka       Kafka bootstrap servers as the processes see them
 * @param topicPrefix topic and consumer group prefix, unique per run
 * @param partitions  partitions of changes, snapshot-rows and rows
 * @param source      the source database
 * @param storage     the bucket storage database
 * @param slotName    replication slot and publication name, unique per run
 * @param syncRules   the sync rules YAML file the ingest deploys at start
 * @param extra       further variables, applied last (they override everything above)
 * @param logs        where each process writes {@code <name>.log}
 */
public record PipelineSettings(Path jar, String kafka, String topicPrefix, int partitions, PgEndpoint source,
                               PgEndpoint storage, String slotName, Path syncRules, Map<String, String> extra,
                               Path logs) {

    /** Consumer session timeout of every process: a killed member's partitions move after at most this long. */
    public static final int SESSION_TIMEOUT_MS = 10_000;

    public PipelineSettings {
        Objects.requireNonNull(jar, "jar");
        Objects.requireNonNull(kafka, "kafka");
        Objects.requireNonNull(topicPrefix, "topicPrefix");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(storage, "storage");
        Objects.requireNonNull(slotName, "slotName");
        Objects.requireNonNull(syncRules, "syncRules");
        Objects.requireNonNull(logs, "logs");
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1: " + partitions);
        }
        extra = Map.copyOf(extra);
    }

    /**
     * The launcher jar of this repository, {@code launcher/target/tributary.jar}, from system property
     * {@code chaos.jar} if set, else found from the working directory upwards.
     *
     * @throws IllegalStateException if it is not built
     */
    public static Path repositoryJar() {
        String configured = System.getProperty("chaos.jar", "");
        if (!configured.isBlank()) {
            return requireFile(Path.of(configured));
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path jar = dir.resolve("launcher").resolve("target").resolve("tributary.jar");
            if (Files.isRegularFile(jar)) {
                return jar;
            }
        }
        throw new IllegalStateException("launcher/target/tributary.jar is missing: build it first"
            + " (mvn -o -q -pl launcher package -DskipTests)");
    }

    private static Path requireFile(Path jar) {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("The runnable jar " + jar.toAbsolutePath() + " is missing: build it"
                + " first (mvn -o -q -pl launcher package -DskipTests)");
        }
        return jar;
    }

    /** A Kafka admin client of {@link #kafka()}, for a scenario's own reads and changes; the caller closes it. */
    public Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka));
    }

    /** These settings with variable {@code name} set to {@code value} for every process started later. */
    public PipelineSettings with(String name, String value) {
        Map<String, String> more = new LinkedHashMap<>(extra);
        more.put(name, value);
        return new PipelineSettings(jar, kafka, topicPrefix, partitions, source, storage, slotName, syncRules, more,
            logs);
    }

    /** These settings with other Kafka bootstrap servers (e.g. a proxy's). */
    public PipelineSettings withKafka(String bootstrapServers) {
        return new PipelineSettings(jar, bootstrapServers, topicPrefix, partitions, source, storage, slotName,
            syncRules, extra, logs);
    }

    /** These settings with another source endpoint (e.g. a proxy's). */
    public PipelineSettings withSource(PgEndpoint endpoint) {
        return new PipelineSettings(jar, kafka, topicPrefix, partitions, endpoint, storage, slotName, syncRules,
            extra, logs);
    }

    /** These settings with another storage endpoint (e.g. a proxy's). */
    public PipelineSettings withStorage(PgEndpoint endpoint) {
        return new PipelineSettings(jar, kafka, topicPrefix, partitions, source, endpoint, slotName, syncRules,
            extra, logs);
    }

    /** The whole environment of a process of {@code role} whose metrics listen on {@code metricsPort}. */
    public Map<String, String> environment(ProcessRole role, int metricsPort) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("LANG", "C.UTF-8");
        env.put("TRIBUTARY_SOURCE_URL", source.jdbcUrl());
        env.put("TRIBUTARY_SOURCE_USER", source.user());
        env.put("TRIBUTARY_SOURCE_PASSWORD", source.password());
        env.put("TRIBUTARY_STORAGE_URL", storage.jdbcUrl());
        env.put("TRIBUTARY_STORAGE_USER", storage.user());
        env.put("TRIBUTARY_STORAGE_PASSWORD", storage.password());
        env.put("TRIBUTARY_KAFKA_BOOTSTRAP_SERVERS", kafka);
        env.put("TRIBUTARY_KAFKA_TOPIC_PREFIX", topicPrefix);
        env.put("TRIBUTARY_KAFKA_PARTITIONS", Integer.toString(partitions));
        env.put("TRIBUTARY_KAFKA_REPLICATION_FACTOR", "1");
        env.put("TRIBUTARY_KAFKA_PROPERTIES_SESSION_TIMEOUT_MS", Integer.toString(SESSION_TIMEOUT_MS));
        env.put("TRIBUTARY_KAFKA_PROPERTIES_HEARTBEAT_INTERVAL_MS", Integer.toString(SESSION_TIMEOUT_MS / 5));
        env.put("TRIBUTARY_REPLICATION_SLOT_NAME", slotName);
        env.put("TRIBUTARY_REPLICATION_PUBLICATION_NAME", slotName);
        env.put("TRIBUTARY_METRICS_PORT", Integer.toString(metricsPort));
        if (role == ProcessRole.INGEST) {
            env.put("TRIBUTARY_SYNC_RULES", syncRules.toAbsolutePath().toString());
        }
        env.putAll(extra);
        return env;
    }
}
