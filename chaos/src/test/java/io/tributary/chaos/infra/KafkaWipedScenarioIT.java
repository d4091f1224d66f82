package io.tributary.chaos.infra;

import io.tributary.chaos.Runs;
import io.tributary.chaos.services.RestartableKafka;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The {@code kafka-wiped} scenario in the CI profile ({@link InfraProfiles#quick}) on a broker of its own
 * ({@link RestartableKafka}), in a class of its own so that it can be run alone: one run takes longer than the CI
 * budget of a scenario, so {@code chaos.excludes} keeps it out of {@code mvn verify} ({@code
 * -Dit.test=KafkaWipedScenarioIT} runs it) and the soak ({@link ChaosSoakIT}) runs it as one of its rounds.
 */
@RealServices
class KafkaWipedScenarioIT {

    @Test
    void aBrokerWipedAsANewClusterIsDetectedAndRecoveredWhileTheLostGroupKeepsServing(TestServices services) {
        long seed = Runs.seed();
        Path directory = InfraRuns.directory(services, "kafka-wiped");
        try (RestartableKafka kafka = RestartableKafka.create(directory.resolve("kafka"))) {
            InfraRuns.runClean(InfraRuns.environment(services, directory, kafka.bootstrapServers()), seed,
                new KafkaWipedScenario(kafka), 1);
        }
    }
}
