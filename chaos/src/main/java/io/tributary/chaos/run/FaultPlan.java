package io.tributary.chaos.run;

import io.tributary.chaos.harness.ProcessRole;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * The faults of one run, drawn from its seed: in each phase, one {@code kill -9} of every role in random order; a
 * rebalance, that is one more process of a random role during the snapshot and the removal (SIGTERM) of one of
 * that role's processes while streaming; plus {@code extra} random faults (kills of any role, added and removed
 * processes); in each phase one kill of ingest right after a transaction across every partition commits, and
 * one new table under a wildcard rule; and, first of the snapshot's faults, one chunk read cut. Each other fault
 * fires at a random delay within its phase's window.
 *
 * @param faults the faults, by phase, then delay
 */
public record FaultPlan(List<Fault> faults) {

    public FaultPlan {
        faults = faults.stream().sorted(Comparator.comparing(Fault::phase).thenComparing(Fault::delay)).toList();
    }

    /** No faults: the control run. */
    public static FaultPlan none() {
        return new FaultPlan(List.of());
    }

    /**
     * A random plan.
     *
     * @param snapshotWindow faults of the snapshot phase fire within this long after the ingest starts
     * @param streamingWindow faults of the streaming phase fire within this long after the group is ACTIVE
     * @param extra          random faults beyond one kill per role and phase
     */
    public static FaultPlan random(long seed, Duration snapshotWindow, Duration streamingWindow, int extra) {
        Random random = new Random(seed ^ 0x5DEECE66DL);
        List<Fault> faults = new ArrayList<>();
        for (Phase phase : Phase.values()) {
            Duration window = phase == Phase.SNAPSHOT ? snapshotWindow : streamingWindow;
            for (ProcessRole role : ProcessRole.values()) {
                faults.add(new Fault(phase, within(random, window), FaultKind.KILL, role, downFor(random)));
            }
        }
        ProcessRole rebalanced = ProcessRole.values()[random.nextInt(ProcessRole.values().length)];
        faults.add(new Fault(Phase.SNAPSHOT, within(random, snapshotWindow), FaultKind.ADD, rebalanced,
            Duration.ZERO));
        faults.add(new Fault(Phase.STREAMING, within(random, streamingWindow), FaultKind.REMOVE, rebalanced,
            Duration.ZERO));
        for (int i = 0; i < extra; i++) {
            Phase phase = random.nextInt(3) == 0 ? Phase.SNAPSHOT : Phase.STREAMING;
            Duration window = phase == Phase.SNAPSHOT ? snapshotWindow : streamingWindow;
            FaultKind kind = FaultKind.PROCESS.get(random.nextInt(FaultKind.PROCESS.size()));
            ProcessRole role = ProcessRole.values()[random.nextInt(ProcessRole.values().length)];
            faults.add(new Fault(phase, within(random, window), kind, role, downFor(random)));
        }
        for (Phase phase : Phase.values()) {
            Duration window = phase == Phase.SNAPSHOT ? snapshotWindow : streamingWindow;
            faults.add(new Fault(phase, within(random, window), FaultKind.KILL_MID_TRANSACTION, ProcessRole.INGEST,
                downFor(random)));
            faults.add(new Fault(phase, within(random, window), FaultKind.NEW_TABLE, ProcessRole.INGEST,
                Duration.ZERO));
        }
        // the first fault of the snapshot: it looks for a read from the start, since a small snapshot reads all its
        // chunks within seconds of the planner's first round (the faults after it wait until it has cut one)
        faults.add(new Fault(Phase.SNAPSHOT, Duration.ZERO, FaultKind.CHUNK_READ_FAILURE, ProcessRole.SNAPSHOT_WORKER,
            Duration.ZERO));
        return new FaultPlan(faults);
    }

    private static Duration within(Random random, Duration window) {
        return Duration.ofMillis((long) (random.nextDouble() * window.toMillis()));
    }

    private static Duration downFor(Random random) {
        return Duration.ofMillis(random.nextInt(3_000));
    }

    /** The faults of {@code phase}, in delay order. */
    public List<Fault> of(Phase phase) {
        return faults.stream().filter(f -> f.phase() == phase).toList();
    }
}
