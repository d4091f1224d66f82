package io.tributary.chaos.infra;

import io.tributary.chaos.run.FaultPlan;
import io.tributary.chaos.run.RunSettings;
import java.time.Duration;

/**
 * Run settings of the {@link CombinedRun}: the infrastructure profiles' data, writes and processes, with a process
 * {@link FaultPlan} (a kill -9 of every role in both phases, a process added while snapshotting and one removed
 * while streaming, plus random extras) and a streaming phase long enough for every source's streaming faults.
 */
public final class CombinedProfiles {

    private CombinedProfiles() {
    }

    /** CI: {@link InfraProfiles#quick}'s data and one process per role; process faults within 15 s and 20 s. */
    public static RunSettings quick(long seed) {
        return with(InfraProfiles.quick(seed), FaultPlan.random(seed, Duration.ofSeconds(15), Duration.ofSeconds(20),
            0), Duration.ofSeconds(30));
    }

    /** Soak: {@link InfraProfiles#soak}'s data and processes; process faults within 30 s and 50 s, 4 extra. */
    public static RunSettings soak(long seed) {
        return with(InfraProfiles.soak(seed), FaultPlan.random(seed, Duration.ofSeconds(30), Duration.ofSeconds(50),
            4), Duration.ofSeconds(75));
    }

    private static RunSettings with(RunSettings base, FaultPlan plan, Duration streaming) {
        return new RunSettings(base.seed(), base.schema(), base.workload(), base.partitions(), base.chunkRows(),
            base.scale(), plan, streaming, base.activeTimeout(), base.quiesceTimeout());
    }
}
