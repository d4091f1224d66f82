package io.tributary.writer.checkpoint;

import io.tributary.postgres.LazyConnection;
import io.tributary.postgres.Retrier;
import io.tributary.postgres.StopSignal;
import io.tributary.postgres.StoppedException;
import io.tributary.storage.groups.Checkpoint;
import io.tributary.writer.internals.WriterCounters;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link Checkpointer} every {@code interval}, and at once when {@link #nudge() nudged} (a new epoch was
 * sealed in every partition), on its own thread and connection until stopped, and stops the
 * whole writer (its shared {@link StopSignal}) once the group is no longer live (STOP or TERMINATED). Retriable
 * storage failures are retried per the writer's policy; a fatal one (or retries past the deadline) ends the loop
 * with {@link #failure()} set. One per writer process; several processes may run one for the same group.
 */
public final class CheckpointLoop implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(CheckpointLoop.class);

    private final Checkpointer checkpointer;
    private final LazyConnection storage;
    private final Retrier retrier;
    private final StopSignal stop;
    private final WriterCounters counters;
    private final Duration interval;
    private final Semaphore nudged = new Semaphore(0);
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private volatile Throwable failure;

    /** A loop running {@code checkpointer} on {@code storage} every {@code interval} until {@code stop}. */
    public CheckpointLoop(Checkpointer checkpointer, LazyConnection storage, Retrier retrier, StopSignal stop,
                          WriterCounters counters, Duration interval) {
        this.checkpointer = checkpointer;
        this.storage = storage;
        this.retrier = retrier;
        this.stop = stop;
        this.counters = counters;
        this.interval = interval;
    }

    /**
     * Asks for a checkpoint attempt now instead of at the end of the interval; cheap, never blocks (a commit thread
     * calls it when it seals the last partition of an epoch), and several nudges before the attempt count as one.
     */
    public void nudge() {
        if (nudged.availablePermits() == 0) {
            nudged.release();
        }
    }

    /**
     * Calls {@code listener} on the loop's thread after each checkpoint it publishes (the checkpoint is committed
     * by then). A listener must be quick and must not throw; it runs before the next attempt.
     */
    public void onPublished(Runnable listener) {
        listeners.add(listener);
    }

    /** Waits for the interval or a nudge; false once the writer stops. */
    private boolean awaitTurn() throws InterruptedException {
        nudged.tryAcquire(interval.toNanos(), TimeUnit.NANOSECONDS);
        nudged.drainPermits();
        return !stop.isStopped();
    }

    /** The fatal failure that ended the loop, if any. */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure);
    }

    @Override
    public void run() {
        try {
            while (awaitTurn()) {
                boolean live = retrier.call("reading the group state", () -> checkpointer.groupIsLive(storage.get()),
                    (e, attempt, backoff) -> {
                        counters.retried();
                        storage.discardIfBroken();
                    });
                if (!live) {
                    LOG.info("The sync rules group is no longer PROCESSING or ACTIVE: its writer stops");
                    stop.stop();
                    return;
                }
                Optional<Checkpoint> published = retrier.call("checkpoint", () -> checkpointer.advance(storage.get()),
                    (e, attempt, backoff) -> {
                        counters.retried();
                        storage.discardIfBroken();
                    });
                if (published.isPresent()) {
                    counters.checkpointPublished();
                    LOG.debug("Checkpoint published: {}", published.get());
                    listeners.forEach(Runnable::run);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (StoppedException e) {
            LOG.debug("Checkpoint loop stopped: {}", e.getMessage());
        } catch (Exception | Error e) {
            failure = e;
            LOG.error("Checkpoint loop failed", e);
        } finally {
            storage.close();
        }
    }
}
