package io.tributary.bench.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A capacity model of a snapshot: from the CPU each role spends per row (measured by the bench), how many cores and
 * processes of each role, and how many partitions, replicate {@code rows} rows in {@code seconds}, and which role
 * saturates first as the rate grows.
 *
 * <p>The arithmetic: the rate is {@code rows / seconds}; a role needs {@code rate x us/row / 1e6} cores. A role that
 * scales out (snapshot workers, stream workers, storage writers, brokers) gets {@code ceil(cores / (coresPerProcess x
 * utilisation))} processes; a role that does not (ingest: one replication slot and one planner; the source and the
 * storage Postgres: one primary each) is one process whose ceiling is {@code coresPerProcess x utilisation x 1e6 /
 * us/row} rows/s, and the role with the lowest ceiling saturates first. Partitions: every stream-worker and
 * storage-writer thread busy at {@code utilisation} needs a partition of its own, so {@code partitions = max over the
 * two of ceil(cores / utilisation)}, at least {@link #MIN_PARTITIONS}; snapshot reads are capped by
 * {@link #SNAPSHOT_TASK_PARTITIONS} task partitions (the most chunk reads that run at once). Immutable.
 */
public final class CapacityModel {

    /** The smallest partition count the model proposes (Tributary's default {@code kafka.partitions}). */
    public static final int MIN_PARTITIONS = 8;
    /** Task partitions per priority: the most snapshot workers that read at once. */
    public static final int SNAPSHOT_TASK_PARTITIONS = 8;

    /** One role's CPU per row and whether more processes of it share the work. */
    public record RoleCost(String role, double microsPerRow, boolean scalesOut, boolean partitioned) {
        public RoleCost {
            Objects.requireNonNull(role, "role");
            if (!(microsPerRow >= 0) || Double.isInfinite(microsPerRow)) {
                throw new IllegalArgumentException("microsPerRow of " + role + " must be >= 0: " + microsPerRow);
            }
        }
    }

    /** What one role needs at the target rate. */
    public record RoleNeed(String role, double microsPerRow, double cores, int processes,
                           double ceilingRowsPerSecond) {
    }

    /** The model's answer: the rate, each role's need, the partitions and the role that saturates first. */
    public record Plan(double rowsPerSecond, List<RoleNeed> roles, int partitions, RoleNeed firstToSaturate,
                       boolean feasible) {

        /** The plan as a markdown table. */
        public String markdown() {
            StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
                "| role | CPU us/row | cores at %,.0f rows/s | processes | ceiling rows/s |%n"
                    + "| --- | ---: | ---: | ---: | ---: |%n", rowsPerSecond));
            for (RoleNeed need : roles) {
                out.append(String.format(Locale.ROOT, "| %s | %.1f | %.2f | %d | %s |%n", need.role(),
                    need.microsPerRow(), need.cores(), need.processes(), Double.isInfinite(need.ceilingRowsPerSecond())
                        ? "scales out" : String.format(Locale.ROOT, "%,.0f", need.ceilingRowsPerSecond())));
            }
            return out.toString();
        }
    }

    private final int coresPerProcess;
    private final double utilisation;

    /**
     * A model of processes with {@code coresPerProcess} cores each, planned to run at {@code utilisation} (0, 1] of
     * them.
     */
    public CapacityModel(int coresPerProcess, double utilisation) {
        if (coresPerProcess < 1 || !(utilisation > 0 && utilisation <= 1)) {
            throw new IllegalArgumentException("coresPerProcess >= 1 and utilisation in (0, 1] expected, got "
                + coresPerProcess + ", " + utilisation);
        }
        this.coresPerProcess = coresPerProcess;
        this.utilisation = utilisation;
    }

    /** The plan for {@code rows} rows in {@code seconds} with {@code costs}. */
    public Plan plan(long rows, double seconds, List<RoleCost> costs) {
        if (rows < 1 || !(seconds > 0) || costs.isEmpty()) {
            throw new IllegalArgumentException("rows >= 1, seconds > 0 and at least one role expected");
        }
        double rate = rows / seconds;
        double usable = coresPerProcess * utilisation;
        List<RoleNeed> needs = new ArrayList<>();
        int partitions = MIN_PARTITIONS;
        for (RoleCost cost : costs) {
            double cores = rate * cost.microsPerRow() / 1e6;
            int processes = cost.scalesOut() ? Math.max(1, (int) Math.ceil(cores / usable)) : 1;
            double ceiling = cost.scalesOut() ? Double.POSITIVE_INFINITY
                : cost.microsPerRow() == 0 ? Double.POSITIVE_INFINITY : usable * 1e6 / cost.microsPerRow();
            needs.add(new RoleNeed(cost.role(), cost.microsPerRow(), cores, processes, ceiling));
            if (cost.partitioned()) {
                partitions = Math.max(partitions, (int) Math.ceil(cores / utilisation));
            }
        }
        RoleNeed first = needs.stream().min(Comparator.comparingDouble((RoleNeed n) -> n.ceilingRowsPerSecond())
            .thenComparing(Comparator.comparingDouble(RoleNeed::microsPerRow).reversed())).orElseThrow();
        boolean feasible = needs.stream().allMatch(n -> n.ceilingRowsPerSecond() >= rate);
        return new Plan(rate, needs, partitions, first, feasible);
    }

    /**
     * Prints the plan for measured figures: {@code ROWS SECONDS CORES_PER_PROCESS UTILISATION} then one
     * {@code role=us[:s][:p]} per role ({@code s}: scales out, {@code p}: consumes partitions).
     */
    public static void main(String[] args) {
        List<RoleCost> costs = new ArrayList<>();
        for (int i = 4; i < args.length; i++) {
            String[] parts = args[i].split("[=:]");
            boolean scales = false;
            boolean partitioned = false;
            for (int j = 2; j < parts.length; j++) {
                scales |= parts[j].equals("s");
                partitioned |= parts[j].equals("p");
            }
            costs.add(new RoleCost(parts[0], Double.parseDouble(parts[1]), scales, partitioned));
        }
        Plan plan = new CapacityModel(Integer.parseInt(args[2]), Double.parseDouble(args[3]))
            .plan(Long.parseLong(args[0]), Double.parseDouble(args[1]), costs);
        System.out.print(plan.markdown());
        System.out.printf(Locale.ROOT, "%npartitions %d; first to saturate: %s (%,.0f rows/s); feasible: %s%n",
            plan.partitions(), plan.firstToSaturate().role(), plan.firstToSaturate().ceilingRowsPerSecond(),
            plan.feasible());
    }
}
