package io.tributary.api.stream;

import java.util.concurrent.atomic.LongAdder;

/**
 * What the sync streams of a process sent: every op in a data line, and those of them taken from a checkpoint's
 * shared read ({@link CheckpointDelta}) instead of a read of the stream's own.
 *
 * <p>Thread-safe.
 */
public final class StreamCounters {

    private final LongAdder opsSent = new LongAdder();
    private final LongAdder sharedOpsSent = new LongAdder();

    void sent(int ops, boolean shared) {
        opsSent.add(ops);
        if (shared) {
            sharedOpsSent.add(ops);
        }
    }

    /** The ops sent in data lines so far. */
    public long opsSent() {
        return opsSent.sum();
    }

    /** The ops sent so far that came from a checkpoint's shared read. */
    public long sharedOpsSent() {
        return sharedOpsSent.sum();
    }
}
