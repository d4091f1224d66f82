package io.tributary.ingest.planner;

import java.time.Duration;
import java.util.Objects;

/**
 * What one planning round did.
 *
 * @param opened   windows opened and planned (markers emitted, chunks stored, plan and tasks published)
 * @param resumed  windows whose interrupted planning was finished or whose lost tasks were published again
 * @param promoted windows whose remaining tasks moved to a higher priority
 * @param failed   tables recorded FAILED while planning (no usable key, unsupported column, permission)
 * @param chunks   chunk tasks published
 * @param took     how long the round took
 */
public record PlanReport(int opened, int resumed, int promoted, int failed, int chunks, Duration took) {

    public PlanReport {
        Objects.requireNonNull(took, "took");
    }

    /** Whether the round changed anything. */
    public boolean didWork() {
        return opened + resumed + promoted + failed + chunks > 0;
    }
}
