package io.tributary.chaos.infra;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.chaos.harness.PipelineSettings;
import io.tributary.chaos.run.RunEnvironment;
import io.tributary.postgres.PgEndpoint;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.TestServices;
import java.nio.file.Path;
import java.time.LocalTime;
import java.util.concurrent.ThreadLocalRandom;

/** What the infrastructure scenario tests share: seeds, environments, printing and the verdict. */
final class InfraRuns {

    private InfraRuns() {
    }

    /** {@code -Dchaos.seed=N}, else a random seed. */
    static long seed() {
        String configured = System.getProperty("chaos.seed", "");
        return configured.isBlank() ? ThreadLocalRandom.current().nextLong(1, 1_000_000_000L)
            : Long.parseLong(configured.trim());
    }

    /** A working directory under {@code target/chaos} no other run uses. */
    static Path directory(TestServices services, String scenario) {
        return Path.of("target", "chaos", "infra-" + scenario + "-" + System.currentTimeMillis() + "-"
            + services.uniqueName("run")).toAbsolutePath();
    }

    /** A fresh source database on the shared server. */
    static PgEndpoint newDatabase(TestServices services) {
        PostgresDatabase database = services.newDatabase();
        return PgEndpoint.of(database.jdbcUrl(), database.user(), database.password());
    }

    /** A run environment on {@code kafka}, with a fresh topic prefix and slot. */
    static RunEnvironment environment(TestServices services, Path directory, String kafka, PgEndpoint source,
                                      PgEndpoint storage) {
        String slot = services.uniqueName("infra");
        return new RunEnvironment(kafka, services.topicPrefix() + slot + ".", source, storage, slot, directory,
            PipelineSettings.repositoryJar());
    }

    static void print(String line) {
        System.out.println(LocalTime.now() + " " + line);
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
