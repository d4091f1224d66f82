package io.tributary.launcher.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The whole configuration, parsed and validated once at start ({@link ConfigLoader}); nothing else in the
 * launcher reads strings, maps or environment variables.
 *
 * @param source empty = embedded Postgres
 * @param storage empty = embedded Postgres
 * @param syncRules the sync rules file, resolved against the config file's folder
 * @param startupWait how long {@code run} waits at start for a service that does not answer yet
 * @param metricsPort 0 = no HTTP endpoint
 * @param embeddedDataDir where embedded Kafka ({@code kafka/}) and Postgres ({@code postgres/}) keep their data
 *     between runs, absolute
 * @param api the sync API
 * @param compaction the background compaction of bucket storage
 */
public record TributaryConfig(Optional<JdbcEndpoint> source, Optional<JdbcEndpoint> storage, KafkaSettings kafka,
                              Optional<Path> syncRules, ReplicationSettings replication, Duration startupWait,
                              int metricsPort, Path embeddedDataDir, ApiConfig api,
                              CompactionConfig compaction) {

    public TributaryConfig {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(storage, "storage");
        Objects.requireNonNull(kafka, "kafka");
        Objects.requireNonNull(syncRules, "syncRules");
        Objects.requireNonNull(replication, "replication");
        Objects.requireNonNull(startupWait, "startupWait");
        Objects.requireNonNull(embeddedDataDir, "embeddedDataDir");
        Objects.requireNonNull(api, "api");
        Objects.requireNonNull(compaction, "compaction");
    }
}
