package io.tributary.chaos.infra;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.chaos.Runs;
import io.tributary.chaos.run.RunEnvironment;
import io.tributary.testing.TestServices;
import java.nio.file.Path;

/** What the infrastructure scenario tests share beyond {@link io.tributary.chaos.Runs}: directories, the verdict. */
final class InfraRuns {

    private InfraRuns() {
    }

    /** A working directory under {@code target/chaos} no other run uses. */
    static Path directory(TestServices services, String scenario) {
        return Path.of("target", "chaos", "infra-" + scenario + "-" + System.currentTimeMillis() + "-"
            + services.uniqueName("run")).toAbsolutePath();
    }

    /**
     * Runs {@code scenario} in the CI profile ({@link InfraProfiles#quick}) from {@code seed}, on the test services'
     * Kafka and a fresh source and storage database, and asserts it clean with at least {@code faults} faults.
     */
    static void runClean(TestServices services, String name, long seed, InfraScenario scenario, int faults) {
        RunEnvironment environment = Runs.environment(services, directory(services, name),
            services.kafkaBootstrapServers(), Runs.newDatabase(services), Runs.newDatabase(services));
        assertClean(new InfraRun(environment, InfraProfiles.quick(seed), scenario, Runs::print).execute(), faults);
    }

    /**
     * The verdict of every scenario: its faults fired in the phases they were meant for, checkpoints were
     * published and audited, and the run is clean (no mismatch of any check, no process exited on its own).
     */
    static void assertClean(InfraReport report, int faults) {
        assertThat(report.faults()).as(report.summary()).hasSizeGreaterThanOrEqualTo(faults)
            .allMatch(InfraFault::hitIntendedPhase);
        assertThat(report.checkpoints()).as(report.summary()).isPositive();
        assertThat(report.crashes()).as(report.summary()).isEmpty();
        assertThat(report.mismatches()).as(report.summary()).isEmpty();
    }
}
