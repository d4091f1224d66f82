package io.tributary.chaos.infra;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.chaos.Runs;
import io.tributary.chaos.run.RunEnvironment;
import io.tributary.chaos.services.RestartableKafka;
import io.tributary.chaos.services.RestartablePostgres;
import io.tributary.postgres.PgEndpoint;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The CI profile of the infrastructure scenarios whose fault is a service (Kafka, storage Postgres, the source's
 * connections, a slow storage link); the others are in {@link InfraScenariosIT}. Each runs the pipeline as separate
 * processes under the seeded workload with its fault in both phases (where it has two), and must end clean: storage
 * equals the reference evaluation, {@code rows} equals the source, every audited checkpoint holds, no process exited
 * on its own. The seed is random unless {@code -Dchaos.seed=N}; it is in every message.
 */
@RealServices
class ServiceFaultScenariosIT {

    @Test
    void kafkaBrokerRestartsMidSnapshotAndMidStreamingLoseNothing(TestServices services) {
        long seed = Runs.seed();
        Path directory = InfraRuns.directory(services, "kafka-restart");
        try (RestartableKafka kafka = RestartableKafka.create(directory.resolve("kafka"))) {
            InfraRuns.runClean(InfraRuns.environment(services, directory, kafka.bootstrapServers()), seed,
                RestartScenario.kafka(kafka), 2);
        }
    }

    @Test
    void storagePostgresRestartsMidSnapshotAndMidStreamingLoseNothing(TestServices services) {
        long seed = Runs.seed();
        Path directory = InfraRuns.directory(services, "storage-restart");
        try (RestartablePostgres postgres = RestartablePostgres.create(directory.resolve("storage"))) {
            PgEndpoint storage = postgres.createDatabase("storage");
            RunEnvironment environment = Runs.environment(services, directory, services.kafkaBootstrapServers(),
                Runs.newDatabase(services), storage);
            InfraRuns.runClean(environment, seed, RestartScenario.storage(postgres), 2);
        }
    }

    @Test
    void sourceConnectionDropsAndOutagesLoseNothing(TestServices services) {
        long seed = Runs.seed();
        Path directory = InfraRuns.directory(services, "source-connections");
        PgEndpoint source = Runs.newDatabase(services);
        RunEnvironment environment = Runs.environment(services, directory, services.kafkaBootstrapServers(),
            source, Runs.newDatabase(services));
        try (SourceConnectionScenario scenario = new SourceConnectionScenario(source, 2)) {
            InfraRuns.runClean(environment, seed, scenario, 6);
        }
    }

    @Test
    void slowStorageIsBackpressureNotARestartLoop(TestServices services) {
        long seed = Runs.seed();
        Path directory = InfraRuns.directory(services, "slow-storage");
        PgEndpoint storage = Runs.newDatabase(services);
        RunEnvironment environment = Runs.environment(services, directory, services.kafkaBootstrapServers(),
            Runs.newDatabase(services), storage);
        try (SlowStorageScenario scenario = new SlowStorageScenario(storage, seed)) {
            InfraReport report = InfraRuns.runClean(environment, seed, scenario, 4);
            assertThat(scenario.bytesForwarded()).as(report.summary()).isPositive();
        }
    }
}
