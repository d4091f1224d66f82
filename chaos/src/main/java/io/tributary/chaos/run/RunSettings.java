package io.tributary.chaos.run;

import io.tributary.chaos.harness.ProcessRole;
import io.tributary.chaos.workload.WorkloadSchema;
import io.tributary.chaos.workload.WorkloadSettings;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * Everything one run does, derived from its seed by the profiles {@link #quick(long)} and {@link #soak(long)}.
 *
 * @param seed          the run's seed: data, writers' choices, fault plan and victims
 * @param schema        table sizes
 * @param workload      writers and rate
 * @param partitions    partitions of changes, snapshot-rows and rows
 * @param chunkRows     snapshot chunk size (small, so the snapshot has many chunks to fail in)
 * @param scale         processes per role at the start
 * @param plan          the faults
 * @param streaming     how long the workload keeps writing after the group is ACTIVE
 * @param activeTimeout how long the initial snapshot may take
 * @param quiesceTimeout how long the checkpoint may take to reach the source's position once writes stop
 */
public record RunSettings(long seed, WorkloadSchema schema, WorkloadSettings workload, int partitions, int chunkRows,
                          Map<ProcessRole, Integer> scale, FaultPlan plan, Duration streaming,
                          Duration activeTimeout, Duration quiesceTimeout) {

    public RunSettings {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(streaming, "streaming");
        scale = Map.copyOf(scale);
        for (ProcessRole role : ProcessRole.values()) {
            if (scale.getOrDefault(role, 0) < 1) {
                throw new IllegalArgumentException("Every role needs a process at the start: " + scale);
            }
        }
    }

    /** The CI profile: small data, a minute of writes after the snapshot, 11 faults (see {@link FaultPlan}). */
    public static RunSettings quick(long seed) {
        return new RunSettings(seed, new WorkloadSchema(24, 1_200, 800),
            new WorkloadSettings(seed, 3, 40, true), 4, 150, scale(1, 2, 2, 2),
            FaultPlan.random(seed, Duration.ofSeconds(25), Duration.ofSeconds(45), 1), Duration.ofSeconds(60),
            Duration.ofMinutes(4), Duration.ofMinutes(3));
    }

    /** One soak round: more data and writes, a longer streaming phase, more random faults. */
    public static RunSettings soak(long seed) {
        return new RunSettings(seed, new WorkloadSchema(40, 4_000, 2_500),
            new WorkloadSettings(seed, 4, 80, true), 6, 250, scale(1, 2, 2, 2),
            FaultPlan.random(seed, Duration.ofSeconds(30), Duration.ofSeconds(100), 6), Duration.ofSeconds(120),
            Duration.ofMinutes(6), Duration.ofMinutes(4));
    }

    private static Map<ProcessRole, Integer> scale(int ingest, int snapshot, int stream, int storage) {
        Map<ProcessRole, Integer> scale = new EnumMap<>(ProcessRole.class);
        scale.put(ProcessRole.INGEST, ingest);
        scale.put(ProcessRole.SNAPSHOT_WORKER, snapshot);
        scale.put(ProcessRole.STREAM_WORKER, stream);
        scale.put(ProcessRole.STORAGE_WRITER, storage);
        return scale;
    }

    /** These settings with another fault plan (e.g. {@link FaultPlan#none()} for a control run). */
    public RunSettings withPlan(FaultPlan other) {
        return new RunSettings(seed, schema, workload, partitions, chunkRows, scale, other, streaming, activeTimeout,
            quiesceTimeout);
    }
}
