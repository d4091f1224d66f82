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
        runClean(environment(services, directory(services, name), services.kafkaBootstrapServers()), seed, scenario,
            faults);
    }

    /**
     * Runs {@code scenario} in the CI profile ({@link InfraProfiles#quick}) from {@code seed} on {@code environment}
     * and asserts it clean with at least {@code faults} faults; the report is for a scenario's own checks after.
     */
    static InfraReport runClean(RunEnvironment environment, long seed, InfraScenario scenario, int faults) {
        InfraReport report = new InfraRun(environment, InfraProfiles.quick(seed), scenario, Runs::print).execute();
        assertClean(report, faults);
        return report;
    }

    /** A run in {@code directory} on the Kafka at {@code kafka} with a fresh source and storage database. */
    static RunEnvironment environment(TestServices services, Path directory, String kafka) {
        return Runs.environment(services, directory, kafka, Runs.newDatabase(services), Runs.newDatabase(services));
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
