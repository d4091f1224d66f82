package io.tributary.writer.consume;

import io.tributary.postgres.LazyConnection;
import io.tributary.postgres.Retrier;
import io.tributary.postgres.StoppedException;
import io.tributary.writer.apply.ApplyResult;
import io.tributary.writer.apply.BatchApplier;
import io.tributary.writer.apply.FencedException;
import io.tributary.writer.apply.PreparedBatch;
import io.tributary.writer.checkpoint.SealGate;
import io.tributary.writer.internals.WriterCounters;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The commit side of one writer loop: a thread applying prepared batches, one transaction each, while the poll
 * thread evaluates the next ones (pipelining). Batches of one partition commit in order; partitions are served
 * round-robin, so a partition whose next batch waits for the aligned-barrier {@link SealGate} never holds back
 * the others (in particular not the one whose seal it waits for).
 *
 * <p>Thread-safe: {@link #submit}, {@link #queued}, {@link #forget} and {@link #drain} are called by the poll
 * thread, everything else runs on the committer's own thread.
 */
final class Committer implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(Committer.class);

    private record Work(PartitionState state, PreparedBatch batch) {
    }

    private final BatchApplier applier;
    private final SealGate gate;
    private final LazyConnection storage;
    private final Retrier retrier;
    private final WriterCounters counters;
    private final Duration gateRecheck;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Map<PartitionState, ArrayDeque<PreparedBatch>> queues = new LinkedHashMap<>();
    private PartitionState inFlight;
    private boolean draining;
    private boolean finished;
    private long nextGateRead;
    private volatile Throwable failure;

    Committer(BatchApplier applier, SealGate gate, LazyConnection storage, Retrier retrier,
              WriterCounters counters, Duration gateRecheck) {
        this.applier = applier;
        this.gate = gate;
        this.storage = storage;
        this.retrier = retrier;
        this.counters = counters;
        this.gateRecheck = gateRecheck;
        this.nextGateRead = System.nanoTime();
    }

    /** Queues {@code batch} of {@code state}'s partition after its earlier batches. */
    void submit(PartitionState state, PreparedBatch batch) {
        lock.lock();
        try {
            queues.computeIfAbsent(state, s -> new ArrayDeque<>()).add(batch);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The batches of {@code state} queued or being committed. */
    int queued(PartitionState state) {
        lock.lock();
        try {
            ArrayDeque<PreparedBatch> queue = queues.get(state);
            return (queue == null ? 0 : queue.size()) + (inFlight == state ? 1 : 0);
        } finally {
            lock.unlock();
        }
    }

    /** Whether no batch is queued or being committed, in any partition: the committer would wait for work. */
    boolean idle() {
        lock.lock();
        try {
            return inFlight == null && queues.values().stream().allMatch(ArrayDeque::isEmpty);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Drops the queued batches of assignments that ended and waits up to {@code wait} (in total) for an in-flight
     * commit of theirs, so a graceful hand-over commits what it can. (A commit that outlives the wait is harmless:
     * the next owner's claim waits for it, or fences it.)
     */
    void forget(Collection<PartitionState> states, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        lock.lock();
        try {
            states.forEach(queues::remove);
            while (inFlight != null && states.contains(inFlight)) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                changed.awaitNanos(left);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Asks the committer to finish: it commits every queued batch it can (re-reading the gate once for blocked ones),
     * hands back the rest, and exits; waits up to {@code wait} for that.
     *
     * @return whether it finished in time
     */
    boolean drain(Duration wait) throws InterruptedException {
        lock.lock();
        try {
            draining = true;
            changed.signalAll();
            long left = wait.toNanos();
            while (!finished && left > 0) {
                left = changed.awaitNanos(left);
            }
            return finished;
        } finally {
            lock.unlock();
        }
    }

    /** The fatal failure that stopped the committer, if any. */
    Optional<Throwable> failure() {
        return Optional.ofNullable(failure);
    }

    @Override
    public void run() {
        try {
            for (Optional<Work> work = next(); work.isPresent(); work = next()) {
                try {
                    commit(work.get());
                } finally {
                    done();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (StoppedException e) {
            LOG.info("Committer stopped: {}", e.getMessage());
        } catch (Exception | Error e) {
            failure = e;
            LOG.error("Committer failed", e);
        } finally {
            storage.close();
            lock.lock();
            try {
                finished = true;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    private Optional<Work> next() throws Exception {
        boolean gateReadWhileDraining = false;
        lock.lock();
        try {
            while (true) {
                Optional<Work> work = pick();
                if (work.isPresent()) {
                    return work;
                }
                boolean blocked = queues.values().stream().anyMatch(q -> !q.isEmpty());
                if (draining && (!blocked || gateReadWhileDraining)) {
                    return Optional.empty();
                }
                long now = System.nanoTime();
                if (blocked && now - nextGateRead >= 0) {
                    lock.unlock();
                    try {
                        refreshGate();
                    } finally {
                        lock.lock();
                    }
                    nextGateRead = System.nanoTime() + gateRecheck.toNanos();
                    gateReadWhileDraining = draining;
                    continue;
                }
                if (blocked) {
                    changed.awaitNanos(Math.max(1, nextGateRead - now));
                } else {
                    changed.await(1, TimeUnit.SECONDS);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    private Optional<Work> pick() {
        Iterator<Map.Entry<PartitionState, ArrayDeque<PreparedBatch>>> entries = queues.entrySet().iterator();
        while (entries.hasNext()) {
            Map.Entry<PartitionState, ArrayDeque<PreparedBatch>> entry = entries.next();
            PartitionState state = entry.getKey();
            ArrayDeque<PreparedBatch> queue = entry.getValue();
            if (!state.isLive()) {
                entries.remove();
                continue;
            }
            PreparedBatch head = queue.peek();
            if (head != null && (!head.allocatesOps() || gate.allows(state.sealedEpoch))) {
                queue.poll();
                entries.remove();
                queues.put(state, queue);
                inFlight = state;
                return Optional.of(new Work(state, head));
            }
        }
        return Optional.empty();
    }

    private void done() {
        lock.lock();
        try {
            inFlight = null;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void refreshGate() throws Exception {
        retrier.call("reading the seals", () -> gate.refresh(storage.get()), (e, attempt, backoff) -> {
            counters.retried();
            storage.discardIfBroken();
        });
    }

    private void commit(Work work) throws Exception {
        PartitionState state = work.state();
        PreparedBatch batch = work.batch();
        if (!state.isLive()) {
            return;
        }
        awaitDeadLetters(batch);
        ApplyResult result;
        long started = System.nanoTime();
        try {
            result = retrier.call("commit of " + batch.describe(),
                () -> applier.apply(storage.get(), state.target(), batch), (e, attempt, backoff) -> {
                    counters.retried();
                    storage.discardIfBroken();
                });
        } catch (FencedException e) {
            LOG.warn("{}", e.getMessage());
            counters.fenced();
            state.fence();
            lock.lock();
            try {
                queues.remove(state);
            } finally {
                lock.unlock();
            }
            return;
        }
        state.maxOpId = result.maxOpId();
        if (result.sealedEpoch().isPresent()) {
            state.sealedEpoch = result.sealedEpoch().getAsLong();
        }
        state.committed(result.nextOffset());
        counters.committed(batch.records(), result.ops(), System.nanoTime() - started);
    }

    private static void awaitDeadLetters(PreparedBatch batch) throws Exception {
        for (Future<?> send : batch.deadLetters()) {
            try {
                send.get();
            } catch (ExecutionException e) {
                throw new IllegalStateException("Dead-lettering a record of " + batch.describe() + " failed; the"
                    + " batch cannot skip it", e.getCause());
            }
        }
    }
}
