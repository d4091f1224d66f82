package io.tributary.chaos.infra;

import io.tributary.chaos.Runs;
import io.tributary.chaos.run.RunEnvironment;
import io.tributary.chaos.run.RunSettings;
import io.tributary.chaos.services.RestartableKafka;
import io.tributary.chaos.services.RestartablePostgres;
import io.tributary.postgres.PgEndpoint;
import io.tributary.testing.TestServices;
import java.nio.file.Path;
import java.util.List;

/**
 * The environment of a {@link CombinedRun}, shared by its CI test and the soak: a restartable broker and storage
 * server of the run's own, the source on the shared server, and four scenarios: {@code kafka-restart},
 * {@code storage-restart}, {@code source-connections} (the source through a proxy) and {@code slow-storage} (the
 * restartable storage through a proxy).
 */
final class CombinedRuns {

    /** The scenarios in a combined run. */
    static final List<String> SCENARIOS = List.of("kafka-restart", "storage-restart", "source-connections",
        "slow-storage");

    private CombinedRuns() {
    }

    /** Sets up, runs once, and tears down. */
    static CombinedReport run(TestServices services, Path directory, RunSettings settings, int dropsPerPhase) {
        try (RestartableKafka kafka = RestartableKafka.create(directory.resolve("kafka"));
             RestartablePostgres postgres = RestartablePostgres.create(directory.resolve("storage"))) {
            PgEndpoint source = Runs.newDatabase(services);
            PgEndpoint storage = postgres.createDatabase("storage");
            RunEnvironment environment = Runs.environment(services, directory, kafka.bootstrapServers(), source,
                storage);
            try (SourceConnectionScenario connections = new SourceConnectionScenario(source, dropsPerPhase);
                 SlowStorageScenario slow = SlowStorageScenario.amongOtherFaults(storage, settings.seed())) {
                return new CombinedRun(environment, settings, List.of(RestartScenario.kafka(kafka),
                    RestartScenario.storage(postgres), connections, slow), Runs::print).execute();
            }
        }
    }
}
