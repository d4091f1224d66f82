package io.tributary.api.stream;

import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongConsumer;

/**
 * What the sync streams of a process sent: every op in a data line, and those of them taken from a checkpoint's
 * shared read ({@link CheckpointDelta}) instead of a read of the stream's own; the downloads a newer checkpoint
 * interrupted; and how long each checkpoint took from its publication in the process to a stream's
 * {@code checkpoint_complete}.
 *
 * <p>Thread-safe.
 */
public final class StreamCounters {

    private final LongAdder opsSent = new LongAdder();
    private final LongAdder sharedOpsSent = new LongAdder();
    private final LongAdder interrupted = new LongAdder();
    private volatile LongConsumer deliveries = nanos -> { };

    void sent(int ops, boolean shared) {
        opsSent.add(ops);
        if (shared) {
            sharedOpsSent.add(ops);
        }
    }

    void interrupted() {
        interrupted.increment();
    }

    void delivered(long nanos) {
        deliveries.accept(nanos);
    }

    /**
     * Calls {@code listener} with the nanoseconds from a checkpoint's publication in the process to each stream's
     * {@code checkpoint_complete} of it (on the stream's thread: it must be quick).
     */
    public void onCheckpointDelivered(LongConsumer listener) {
        deliveries = Objects.requireNonNull(listener, "listener");
    }

    /** The ops sent in data lines so far. */
    public long opsSent() {
        return opsSent.sum();
    }

    /** The downloads a newer checkpoint interrupted (its {@code checkpoint_diff} went out before they completed). */
    public long downloadsInterrupted() {
        return interrupted.sum();
    }

    /** The ops sent so far that came from a checkpoint's shared read. */
    public long sharedOpsSent() {
        return sharedOpsSent.sum();
    }
}
