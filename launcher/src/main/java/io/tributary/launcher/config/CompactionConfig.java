package io.tributary.launcher.config;

import java.time.Duration;
import java.util.Objects;

/**
 * Compaction of bucket storage ({@code compaction.*}).
 *
 * @param interval how often {@code run} compacts every ACTIVE group; zero = never in the background
 * @param batchOps ops read per page, rewritten per statement and folded per transaction, &gt; 0
 * @param passOps  most bucket ops one background pass of a group reads, &gt; 0; the next pass goes on from there
 */
public record CompactionConfig(Duration interval, int batchOps, int passOps) {

    public CompactionConfig {
        Objects.requireNonNull(interval, "interval");
        if (interval.isNegative()) {
            throw new IllegalArgumentException("Compaction interval is >= 0: " + interval);
        }
        if (batchOps <= 0) {
            throw new IllegalArgumentException("Compaction batch is > 0 ops: " + batchOps);
        }
        if (passOps <= 0) {
            throw new IllegalArgumentException("Compaction passes read > 0 ops: " + passOps);
        }
    }

    /** Whether {@code run} compacts in the background. */
    public boolean background() {
        return !interval.isZero();
    }
}
