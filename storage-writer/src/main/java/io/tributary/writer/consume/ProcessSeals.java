package io.tributary.writer.consume;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The newest seal per partition as known to the writer loops of one process (committed by one of them, or read from
 * storage by one of them), shared so that a loop whose batch waits for the aligned-barrier gate is woken the moment a
 * sibling loop commits the seal it waits for, instead of at its next re-read of {@code sealed_epochs} (up to
 * {@code gateRecheck} later). Seals of partitions owned by other processes still arrive through those re-reads.
 *
 * <p>Seals only grow, so a value read here is never ahead of storage: it only ever allows what a re-read would.
 * Thread-safe; listeners run on the thread that reports a newer seal and must not block.
 */
public final class ProcessSeals {

    private final AtomicLongArray newest;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private final List<Runnable> everywhereListeners = new CopyOnWriteArrayList<>();
    private final AtomicLong sealedEverywhere = new AtomicLong(-1);

    /** The seals of {@code partitions} partitions, none sealed as far as the process knows. */
    public ProcessSeals(int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1, got " + partitions);
        }
        newest = new AtomicLongArray(partitions);
        for (int p = 0; p < partitions; p++) {
            newest.set(p, -1);
        }
    }

    /** How many partitions. */
    int partitions() {
        return newest.length();
    }

    /** The newest seal of {@code partition} known in this process, {@code -1} if none (or out of range). */
    long newest(int partition) {
        return partition >= 0 && partition < newest.length() ? newest.get(partition) : -1;
    }

    /** Records that {@code partition} sealed {@code epoch}; if that is news, runs the listeners. */
    void sealed(int partition, long epoch) {
        if (partition < 0 || partition >= newest.length()) {
            return;
        }
        long before = newest.getAndAccumulate(partition, epoch, Math::max);
        if (epoch > before) {
            listeners.forEach(Runnable::run);
            long everywhere = lowest();
            if (sealedEverywhere.getAndAccumulate(everywhere, Math::max) < everywhere) {
                everywhereListeners.forEach(Runnable::run);
            }
        }
    }

    /** The newest epoch every partition has sealed, as far as this process knows; {@code -1} if none. */
    long lowest() {
        long lowest = Long.MAX_VALUE;
        for (int p = 0; p < newest.length(); p++) {
            lowest = Math.min(lowest, newest.get(p));
        }
        return lowest;
    }

    /** Runs {@code listener} whenever a partition's newest seal grows. */
    void onNewSeal(Runnable listener) {
        listeners.add(listener);
    }

    /**
     * Runs {@code listener} whenever a newer epoch is known sealed in every partition: the moment a checkpoint may
     * advance (if the other gates allow). Seals of partitions other processes own arrive only through re-reads, so
     * with several processes this may lag; it is a hint to check early, never the only check.
     */
    public void onSealedEverywhere(Runnable listener) {
        everywhereListeners.add(listener);
    }
}
