package io.tributary.writer.consume;

import io.tributary.postgres.LazyConnection;
import io.tributary.postgres.Retrier;
import io.tributary.postgres.StoppedException;
import io.tributary.writer.apply.ApplyResult;
import io.tributary.writer.apply.ApplyTarget;
import io.tributary.writer.apply.BatchApplier;
import io.tributary.writer.apply.DeadLetter;
import io.tributary.writer.apply.FencedException;
import io.tributary.writer.apply.PreparedBatch;
import io.tributary.writer.internals.WriterCounters;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The commit side of one writer loop: a thread applying prepared batches while the poll thread evaluates the next
 * ones (pipelining). Batches of one partition commit in order; partitions are served round-robin, so a partition
 * whose next batch waits for the aligned-barrier gate ({@link PeerSeals}) never holds back the others (in
 * particular not the one whose seal it waits for).
 *
 * <p>One transaction takes every queued batch the gate allows, of all partitions, up to {@code transactionRecords}
 * records per partition (its first batch always goes), in rounds of one batch per partition: a partition's batch
 * after its seal of {@code s} joins once every other partition sealed {@code s}, committed or earlier in the same
 * transaction, and the batches are applied (their op ids allocated) in the order taken. So the partitions of one
 * writer advance through the epochs together, in few transactions that seal several epochs each; a backlog (e.g.
 * behind slow storage) costs a few transactions, not one per partition and epoch, and a small backlog still commits as
 * soon as it is queued.
 *
 * <p>Each assignment counts its {@link PartitionAssignment#waitingRecords() waiting records}: those submitted and not
 * yet taken by a transaction (taking a batch subtracts it, handing it back adds it again), so the poll thread can
 * bound what its loop holds; {@code onTaken} runs, on the committer's thread, whenever a transaction took batches.
 *
 * <p>Thread-safe: {@link #submit}, {@link #idle}, {@link #forget} and {@link #drain} are called by the poll thread,
 * everything else runs on the committer's own thread.
 */
final class Committer implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(Committer.class);

    /** Batches of one or several partitions, in apply order, to commit in one transaction. */
    private record Work(List<PreparedBatch> batches, Map<PartitionAssignment, Integer> records) {

        int totalRecords() {
            return records.values().stream().mapToInt(Integer::intValue).sum();
        }

        String describe() {
            return batches.size() + " batches of partitions " + records.keySet();
        }
    }

    private final BatchApplier applier;
    private final DeadLetterSink deadLetters;
    private final PeerSeals gate;
    private final LazyConnection storage;
    private final Retrier retrier;
    private final WriterCounters counters;
    private final Duration gateRecheck;
    private final int transactionRecords;
    private final Runnable onTaken;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Map<PartitionAssignment, ArrayDeque<PreparedBatch>> queues = new LinkedHashMap<>();
    private final Set<PartitionAssignment> inFlight = new HashSet<>();
    private boolean draining;
    private boolean finished;
    private long nextGateRead;
    private boolean gateBlocked;
    private volatile Throwable failure;

    Committer(BatchApplier applier, DeadLetterSink deadLetters, PeerSeals gate, LazyConnection storage,
              Retrier retrier, WriterCounters counters, Duration gateRecheck, int transactionRecords,
              Runnable onTaken) {
        if (transactionRecords < 1) {
            throw new IllegalArgumentException("transactionRecords must be >= 1, got " + transactionRecords);
        }
        this.applier = applier;
        this.deadLetters = deadLetters;
        this.gate = gate;
        this.storage = storage;
        this.retrier = retrier;
        this.counters = counters;
        this.gateRecheck = gateRecheck;
        this.transactionRecords = transactionRecords;
        this.onTaken = onTaken;
        this.nextGateRead = System.nanoTime();
    }

    /** Queues {@code batch} of {@code state}'s partition after its earlier batches. */
    void submit(PartitionAssignment state, PreparedBatch batch) {
        lock.lock();
        try {
            queues.computeIfAbsent(state, s -> new ArrayDeque<>()).add(batch);
            state.addWaiting(batch.records());
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Whether the committer would wait for work: nothing is being committed, and no batch is queued or every queued
     * one waits for the aligned-barrier gate.
     */
    boolean idle() {
        lock.lock();
        try {
            return inFlight.isEmpty() && (gateBlocked || queues.values().stream().allMatch(ArrayDeque::isEmpty));
        } finally {
            lock.unlock();
        }
    }

    /** Another loop of the process committed a seal: a batch waiting for the gate may go now. */
    void peerSealed() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Drops the queued batches of assignments that ended and waits up to {@code wait} (in total) for an in-flight
     * commit of theirs, so a graceful hand-over commits what it can. (A commit that outlives the wait is harmless:
     * the next owner's claim waits for it, or fences it.)
     */
    void forget(Collection<PartitionAssignment> states, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        lock.lock();
        try {
            states.forEach(queues::remove);
            while (states.stream().anyMatch(inFlight::contains)) {
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
                onTaken.run();
                try {
                    commit(work.get());
                } finally {
                    done(work.get());
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

    /**
     * Re-reads the seals with the lock released (the caller holds it, and holds it again on return) and schedules
     * the next read.
     *
     * @return whether the committer was draining when the read finished
     */
    private boolean readGateUnlocked() throws Exception {
        lock.unlock();
        try {
            refreshGate();
        } finally {
            lock.lock();
        }
        nextGateRead = System.nanoTime() + gateRecheck.toNanos();
        return draining;
    }

    private Optional<Work> next() throws Exception {
        boolean gateReadWhileDraining = false;
        lock.lock();
        try {
            while (true) {
                if (gateBlocked && System.nanoTime() - nextGateRead >= 0) {
                    gateReadWhileDraining = readGateUnlocked();
                }
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
                    gateReadWhileDraining = readGateUnlocked();
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
        queues.entrySet().removeIf(entry -> !entry.getKey().isLive());
        gateBlocked = false;
        Map<Integer, Long> planned = new HashMap<>();
        Map<PartitionAssignment, Integer> taken = new LinkedHashMap<>();
        List<PreparedBatch> batches = new ArrayList<>();
        for (boolean progress = true; progress; ) {
            progress = false;
            for (Map.Entry<PartitionAssignment, ArrayDeque<PreparedBatch>> entry : queues.entrySet()) {
                PartitionAssignment state = entry.getKey();
                PreparedBatch next = entry.getValue().peek();
                int records = taken.getOrDefault(state, 0);
                if (next == null || records > 0 && records + next.records() > transactionRecords) {
                    continue;
                }
                long sealed = planned.getOrDefault(state.partition(), state.sealedEpoch);
                if (next.allocatesOps() && !gate.allows(state.partition(), sealed, planned)) {
                    gateBlocked = true;
                    continue;
                }
                entry.getValue().poll();
                state.addWaiting(-next.records());
                batches.add(next);
                taken.put(state, records + next.records());
                if (next.barrier().isPresent()) {
                    planned.put(state.partition(), Math.max(sealed, next.barrier().get().epoch()));
                }
                progress = true;
            }
        }
        if (batches.isEmpty()) {
            return Optional.empty();
        }
        for (PartitionAssignment state : taken.keySet()) {
            queues.put(state, queues.remove(state));
        }
        inFlight.addAll(taken.keySet());
        return Optional.of(new Work(batches, taken));
    }

    private void done(Work work) {
        lock.lock();
        try {
            inFlight.removeAll(work.records().keySet());
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Puts the batches of {@code work} back at the head of their (live) partitions' queues, in order. */
    private void requeue(Work work) {
        lock.lock();
        try {
            List<PreparedBatch> batches = new ArrayList<>(work.batches());
            for (int i = batches.size() - 1; i >= 0; i--) {
                PreparedBatch batch = batches.get(i);
                for (PartitionAssignment state : work.records().keySet()) {
                    if (state.partition() == batch.partition() && state.isLive()) {
                        queues.computeIfAbsent(state, s -> new ArrayDeque<>()).addFirst(batch);
                        state.addWaiting(batch.records());
                    }
                }
            }
        } finally {
            lock.unlock();
        }
    }

    private void refreshGate() throws Exception {
        retrier.call("reading the seals", () -> {
            gate.refresh(storage.get());
            return null;
        }, (e, attempt, backoff) -> {
            counters.retried();
            storage.discardIfBroken();
        });
    }

    /**
     * Commits {@code work}; returns false if it was handed back to the queues (or dropped) instead. Its dead letters
     * are sent first, once (batches handed back no longer carry them).
     */
    private boolean commit(Work taken) throws Exception {
        Set<PartitionAssignment> states = taken.records().keySet();
        if (!states.stream().allMatch(PartitionAssignment::isLive)) {
            requeue(taken);
            return false;
        }
        Work work = sendDeadLetters(taken);
        List<ApplyTarget> targets = states.stream().map(PartitionAssignment::target).toList();
        Map<Integer, ApplyResult> results;
        long started = System.nanoTime();
        try {
            results = retrier.call("commit of " + work.describe(),
                () -> applier.apply(storage.get(), targets, work.batches()), (e, attempt, backoff) -> {
                    counters.retried();
                    storage.discardIfBroken();
                });
        } catch (FencedException e) {
            LOG.warn("{}", e.getMessage());
            counters.fenced();
            for (PartitionAssignment state : states) {
                if (state.partition() == e.partition()) {
                    state.fence();
                    lock.lock();
                    try {
                        queues.remove(state);
                    } finally {
                        lock.unlock();
                    }
                }
            }
            requeue(work);
            return false;
        }
        int ops = 0;
        for (PartitionAssignment state : states) {
            ApplyResult result = results.get(state.partition());
            state.maxOpId = result.maxOpId();
            if (result.sealedEpoch().isPresent()) {
                state.sealedEpoch = result.sealedEpoch().getAsLong();
                gate.sealed(state.partition(), state.sealedEpoch);
            }
            state.committed(result.nextOffset());
            ops += result.ops();
        }
        counters.committed(work.totalRecords(), ops, System.nanoTime() - started);
        return true;
    }

    /**
     * Sends the dead letters of {@code work} and waits for Kafka to acknowledge them; returns the work without them.
     * Sending them here, right before the transaction that stores the batches' offsets, rather than when the records
     * are evaluated, means a batch dropped from the queue by a rebalance has sent nothing: its partition's next owner
     * evaluates the records again and sends their letters once. Only a crash, or a fencing, between the send and the
     * commit repeats a letter (each carries its origin, so a reader can drop repeats).
     */
    private Work sendDeadLetters(Work work) throws Exception {
        if (work.batches().stream().allMatch(batch -> batch.deadLetters().isEmpty())) {
            return work;
        }
        List<Future<?>> sends = new ArrayList<>();
        for (PreparedBatch batch : work.batches()) {
            for (DeadLetter letter : batch.deadLetters()) {
                sends.add(deadLetters.send(letter));
            }
        }
        for (Future<?> send : sends) {
            try {
                send.get();
            } catch (ExecutionException e) {
                throw new IllegalStateException("Dead-lettering a record of " + work.describe() + " failed; the"
                    + " batch cannot skip it", e.getCause());
            }
            counters.deadLettered();
        }
        return new Work(work.batches().stream().map(PreparedBatch::withoutDeadLetters).toList(), work.records());
    }
}
