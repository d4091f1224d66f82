package io.tributary.chaos.run;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.function.LongFunction;
import java.util.stream.Collectors;

/**
 * The soak profile: runs rounds ({@link ChaosRun}s with seeds {@code seed, seed + 1, ...}, each in a fresh
 * environment) until the time budget is used up, and sums them up. A round that cannot be carried out counts as
 * a failed round and the soak goes on.
 */
public final class Soak {

    /**
     * The outcome of a soak.
     *
     * @param reports  every completed round
     * @param failures rounds that could not be carried out, with their seed
     */
    public record Result(List<RunReport> reports, List<String> failures) {

        public Result {
            reports = List.copyOf(reports);
            failures = List.copyOf(failures);
        }

        public int runs() {
            return reports.size() + failures.size();
        }

        public int faults() {
            return reports.stream().mapToInt(RunReport::applied).sum();
        }

        public int checkpoints() {
            return reports.stream().mapToInt(RunReport::checkpoints).sum();
        }

        /** The faults that did something, by kind. */
        public Map<FaultKind, Long> faultsByKind() {
            return reports.stream().flatMap(r -> r.faults().stream()).filter(InjectedFault::applied)
                .collect(Collectors.groupingBy(f -> f.fault().kind(), () -> new EnumMap<>(FaultKind.class),
                    Collectors.counting()));
        }

        public int mismatches() {
            return reports.stream().mapToInt(r -> r.mismatches().size()).sum();
        }

        public int crashes() {
            return reports.stream().mapToInt(r -> r.crashes().size()).sum();
        }

        /** Every round completed without mismatch or crash. */
        public boolean clean() {
            return failures.isEmpty() && reports.stream().allMatch(RunReport::clean);
        }

        /** {@code runs, faults injected, mismatches}, then the seeds of rounds that were not clean. */
        public String summary() {
            StringBuilder out = new StringBuilder("chaos soak: " + runs() + " runs, " + faults()
                + " faults injected " + faultsByKind() + ", " + checkpoints() + " checkpoints audited, "
                + mismatches() + " mismatches, " + crashes() + " crashes, " + failures.size() + " failed rounds");
            reports.stream().filter(r -> !r.clean()).forEach(r -> out.append("\n").append(r.summary()));
            failures.forEach(f -> out.append("\n  FAILED ROUND ").append(f));
            return out.toString();
        }
    }

    private Soak() {
    }

    /**
     * Runs rounds until {@code budget} is used up (a round starts only while time is left).
     *
     * @param environments the environment of round {@code i}
     * @param settings     the settings of a round with a given seed, e.g. {@link RunSettings#soak(long)}
     */
    public static Result run(Duration budget, long seed, IntFunction<RunEnvironment> environments,
                             LongFunction<RunSettings> settings, Consumer<String> log) {
        long deadline = System.nanoTime() + budget.toNanos();
        List<RunReport> reports = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        for (int round = 0; round == 0 || System.nanoTime() < deadline; round++) {
            long roundSeed = seed + round;
            log.accept("soak round " + (round + 1) + ", seed " + roundSeed);
            try {
                reports.add(new ChaosRun(environments.apply(round), settings.apply(roundSeed), log).execute());
            } catch (RuntimeException e) {
                failures.add("seed " + roundSeed + ": " + e);
                log.accept("soak round " + (round + 1) + " failed: " + e);
            }
            log.accept(new Result(reports, failures).summary());
        }
        return new Result(reports, failures);
    }
}
