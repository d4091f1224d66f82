package io.tributary.chaos.infra;

import io.tributary.chaos.harness.ProcessRole;
import io.tributary.chaos.run.FaultPlan;
import io.tributary.chaos.run.RunSettings;
import io.tributary.chaos.workload.WorkloadSchema;
import io.tributary.chaos.workload.WorkloadSettings;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

/**
 * Run settings of the infrastructure scenarios (no process faults: the scenario is the fault). The quick profile
 * keeps one process per role and little data so five scenarios fit in CI; the soak profile writes more for longer
 * with two processes per worker role.
 */
public final class InfraProfiles {

    private InfraProfiles() {
    }

    /** CI: a snapshot of a few thousand rows in small chunks, writes during it and for 20 s after. */
    public static RunSettings quick(long seed) {
        return new RunSettings(seed, new WorkloadSchema(16, 600, 400), new WorkloadSettings(seed, 2, 30, true), 4,
            40, scale(1), FaultPlan.none(), Duration.ofSeconds(20), Duration.ofMinutes(4), Duration.ofMinutes(3));
    }

    /** Soak: more rows and writes, two processes per worker role, a minute of streaming. */
    public static RunSettings soak(long seed) {
        return new RunSettings(seed, new WorkloadSchema(32, 3_000, 2_000), new WorkloadSettings(seed, 3, 60, true),
            6, 150, scale(2), FaultPlan.none(), Duration.ofSeconds(60), Duration.ofMinutes(6), Duration.ofMinutes(4));
    }

    private static Map<ProcessRole, Integer> scale(int workers) {
        Map<ProcessRole, Integer> scale = new EnumMap<>(ProcessRole.class);
        scale.put(ProcessRole.INGEST, 1);
        scale.put(ProcessRole.SNAPSHOT_WORKER, workers);
        scale.put(ProcessRole.STREAM_WORKER, workers);
        scale.put(ProcessRole.STORAGE_WRITER, workers);
        return scale;
    }
}
