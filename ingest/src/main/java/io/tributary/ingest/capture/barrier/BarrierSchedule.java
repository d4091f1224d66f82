package io.tributary.ingest.capture.barrier;

import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.Lsn;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * When the next barrier is due and what it says. Epochs increase by one per barrier, starting after the newest
 * barrier already in {@code changes}; LSNs never decrease (after a restart, replayed transactions below the
 * previous instance's last barrier LSN do not lower it). A barrier is due once {@code interval} has passed since
 * the previous one and some position is known. Not thread-safe (the batch handler owns it). Times are
 * {@link System#nanoTime()} values.
 */
public final class BarrierSchedule {

    private final long intervalNanos;
    private long nextEpoch;
    private Lsn floor;
    private boolean positionKnown;
    private long lastNanos;
    private boolean emitted;

    private BarrierSchedule(Duration interval, long nextEpoch, Lsn floor, boolean positionKnown) {
        this.intervalNanos = interval.toNanos();
        this.nextEpoch = nextEpoch;
        this.floor = floor;
        this.positionKnown = positionKnown;
    }

    /** A schedule continuing after {@code recovered}, emitting at most one barrier per {@code interval}. */
    public static BarrierSchedule after(RecoveredBarriers recovered, Duration interval) {
        Objects.requireNonNull(interval, "interval");
        Optional<Barrier> latest = recovered.latest();
        return new BarrierSchedule(interval, latest.map(b -> b.epoch() + 1).orElse(1L), recovered.highestLsn(),
            latest.isPresent());
    }

    /**
     * The barrier to write now, if one is due: every event with commit LSN {@code <= acknowledged} has been
     * acknowledged by Kafka.
     *
     * @param acknowledged the highest commit LSN whose transaction is wholly acknowledged, if any
     * @param nowNanos     the current {@link System#nanoTime()}
     */
    public Optional<Barrier> next(Optional<Lsn> acknowledged, long nowNanos) {
        acknowledged.ifPresent(lsn -> {
            floor = Lsn.max(floor, lsn);
            positionKnown = true;
        });
        if (!positionKnown || emitted && nowNanos - lastNanos < intervalNanos) {
            return Optional.empty();
        }
        Barrier barrier = Barrier.of(nextEpoch++, floor);
        lastNanos = nowNanos;
        emitted = true;
        return Optional.of(barrier);
    }
}
