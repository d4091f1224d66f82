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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The soak profile of the infrastructure scenarios, run by {@code ./chaos.sh} next to the process-fault soak (it
 * has the same class name in its own package, so the pom's soak exclusion and {@code -Dit.test=ChaosSoakIT} cover
 * both): rounds cycle through the scenarios and the combined run (every process and service fault at once,
 * {@link CombinedRun}), {@code oversized-row}, {@code rows-recreated} and {@code changes-retention} first, with
 * seeds {@code seed, seed + 1, ...} until {@code -Dchaos.minutes} are used up, and fail unless every round is clean.
 */
@RealServices
class ChaosSoakIT {

    private static final List<String> SCENARIOS = List.of("oversized-row", "rows-recreated", "changes-retention",
        "row-id-conflict", CombinedRun.NAME, "kafka-restart", "storage-restart", "source-connections",
        "slow-storage", "redeploy-mid-snapshot", "kafka-wiped", "changes-lost", "tasks-lost");

    @Test
    void everyInfrastructureScenarioStaysCleanForTheWholeSoak(TestServices services) {
        long seed = Runs.seed();
        Duration budget = Duration.ofMinutes(Long.parseLong(System.getProperty("chaos.minutes", "30").trim()));
        long deadline = System.nanoTime() + budget.toNanos();
        List<InfraReport> reports = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        for (int round = 0; round == 0 || System.nanoTime() < deadline; round++) {
            String scenario = SCENARIOS.get(round % SCENARIOS.size());
            long roundSeed = seed + round;
            Runs.print("infra soak round " + (round + 1) + ": " + scenario + ", seed " + roundSeed);
            try {
                reports.add(run(services, scenario, roundSeed));
            } catch (RuntimeException e) {
                failures.add(scenario + " seed " + roundSeed + ": " + e);
            }
            Runs.print(summary(reports, failures));
        }
        String summary = summary(reports, failures);
        assertThat(failures).as(summary).isEmpty();
        assertThat(reports).as(summary).allMatch(InfraReport::clean);
    }

    private static InfraReport run(TestServices services, String scenario, long seed) {
        Path directory = InfraRuns.directory(services, "soak-" + scenario);
        if (scenario.equals(CombinedRun.NAME)) {
            return CombinedRuns.run(services, directory, CombinedProfiles.soak(seed), 4).run();
        }
        String kafka = services.kafkaBootstrapServers();
        PgEndpoint source = Runs.newDatabase(services);
        PgEndpoint storage = Runs.newDatabase(services);
        switch (scenario) {
            case "kafka-restart" -> {
                try (RestartableKafka broker = RestartableKafka.create(directory.resolve("kafka"))) {
                    return execute(Runs.environment(services, directory, broker.bootstrapServers(), source,
                        storage), seed, RestartScenario.kafka(broker));
                }
            }
            case "kafka-wiped" -> {
                try (RestartableKafka broker = RestartableKafka.create(directory.resolve("kafka"))) {
                    return execute(Runs.environment(services, directory, broker.bootstrapServers(), source,
                        storage), seed, new KafkaWipedScenario(broker));
                }
            }
            case "storage-restart" -> {
                try (RestartablePostgres server = RestartablePostgres.create(directory.resolve("storage"))) {
                    return execute(Runs.environment(services, directory, kafka, source,
                        server.createDatabase("storage")), seed, RestartScenario.storage(server));
                }
            }
            case "source-connections" -> {
                try (SourceConnectionScenario faults = new SourceConnectionScenario(source, 4)) {
                    return execute(Runs.environment(services, directory, kafka, source, storage), seed, faults);
                }
            }
            case "changes-retention" -> {
                return execute(Runs.environment(services, directory, kafka, source, storage), seed,
                    new ChangesRetentionScenario());
            }
            case "rows-recreated" -> {
                return execute(Runs.environment(services, directory, kafka, source, storage), seed,
                    new RowsRecreatedScenario());
            }
            case "changes-lost" -> {
                return execute(Runs.environment(services, directory, kafka, source, storage), seed,
                    new ChangesLostScenario());
            }
            case "tasks-lost" -> {
                return execute(Runs.environment(services, directory, kafka, source, storage), seed,
                    new TasksLostScenario());
            }
            case "row-id-conflict" -> {
                return execute(Runs.environment(services, directory, kafka, source, storage), seed,
                    new RowIdConflictScenario(seed));
            }
            case "oversized-row" -> {
                return execute(Runs.environment(services, directory, kafka, source, storage), seed,
                    new OversizedRowScenario(seed));
            }
            case "slow-storage" -> {
                try (SlowStorageScenario faults = new SlowStorageScenario(storage, seed)) {
                    return execute(Runs.environment(services, directory, kafka, source, storage), seed, faults);
                }
            }
            default -> {
                return execute(Runs.environment(services, directory, kafka, source, storage), seed,
                    new RedeployScenario());
            }
        }
    }

    private static InfraReport execute(RunEnvironment environment, long seed, InfraScenario scenario) {
        return new InfraRun(environment, InfraProfiles.soak(seed), scenario, Runs::print).execute();
    }

    private static String summary(List<InfraReport> reports, List<String> failures) {
        StringBuilder out = new StringBuilder("infra soak: " + (reports.size() + failures.size()) + " runs, "
            + reports.stream().mapToInt(r -> r.faults().size()).sum() + " faults injected, "
            + reports.stream().mapToInt(r -> r.mismatches().size()).sum() + " mismatches, "
            + reports.stream().mapToInt(r -> r.crashes().size()).sum() + " crashes, " + failures.size()
            + " failed rounds");
        reports.stream().filter(r -> !r.clean()).forEach(r -> out.append('\n').append(r.summary()));
        failures.forEach(f -> out.append("\n  FAILED ROUND ").append(f));
        return out.toString();
    }
}
