package io.tributary.launcher.run;

import io.tributary.topics.messages.Lsn;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;

/**
 * Replication lag in seconds, from the source's WAL position sampled over time: a checkpoint at LSN C lags by
 * the age of the oldest source WAL not covered by it, i.e. {@code now - (first sample time the source was past
 * C)}; zero when the source is not past C. Resolution is the sampling interval; samples older than the retention
 * are dropped, so a lag beyond it reads as the retention (a lower bound). Thread-safe.
 */
final class ReplicationLag {

    private record Sample(Instant at, Lsn lsn) {
    }

    private final Duration retention;
    private final Deque<Sample> samples = new ArrayDeque<>();

    ReplicationLag(Duration retention) {
        this.retention = Objects.requireNonNull(retention, "retention");
    }

    /** Records the source's WAL position {@code lsn} at {@code at} (samples arrive in time order). */
    synchronized void sample(Instant at, Lsn lsn) {
        samples.addLast(new Sample(at, lsn));
        while (!samples.isEmpty() && samples.peekFirst().at().isBefore(at.minus(retention))) {
            samples.removeFirst();
        }
    }

    /** How far a checkpoint at {@code checkpoint} is behind the source at {@code now}. */
    synchronized Duration lag(Lsn checkpoint, Instant now) {
        for (Sample sample : samples) {
            if (sample.lsn().isAfter(checkpoint)) {
                Duration lag = Duration.between(sample.at(), now);
                return lag.isNegative() ? Duration.ZERO : lag;
            }
        }
        return Duration.ZERO;
    }
}
