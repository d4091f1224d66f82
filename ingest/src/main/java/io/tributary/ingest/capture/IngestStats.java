package io.tributary.ingest.capture;

import io.tributary.topics.messages.Barrier;
import java.util.Objects;
import java.util.Optional;

/**
 * What an {@link IngestService} has written to {@code changes} since it was created (over every engine run).
 *
 * @param changeEvents  row change events acknowledged by Kafka
 * @param transactions  source transactions whose changes were acknowledged (including empty ones)
 * @param markers       window and truncate markers acknowledged (each counted once, not per partition)
 * @param barriers      barriers written (each counted once, not per partition)
 * @param lastBarrier   the newest barrier written, if any
 */
public record IngestStats(long changeEvents, long transactions, long markers, long barriers,
                          Optional<Barrier> lastBarrier) {

    public IngestStats {
        Objects.requireNonNull(lastBarrier, "lastBarrier");
    }
}
