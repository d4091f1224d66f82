package io.tributary.writer.consume;

import io.tributary.postgres.LazyConnection;
import io.tributary.postgres.Retrier;
import io.tributary.postgres.RetryPolicy;
import io.tributary.postgres.StopSignal;
import io.tributary.postgres.StoppedException;
import io.tributary.syncrules.SyncRules;
import io.tributary.writer.WriterConfig;
import io.tributary.writer.WriterTuning;
import io.tributary.writer.apply.BatchApplier;
import io.tributary.writer.apply.PreparedBatch;
import io.tributary.writer.internals.StorageConnections;
import io.tributary.writer.internals.WriterCounters;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.InvalidOffsetException;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The poll side of one writer loop: one Kafka consumer of the group's consumer group over {@code rows}, on its
 * own thread, feeding its {@link Committer}.
 *
 * <p>Offsets live in storage, not Kafka: on assignment each partition is {@link PartitionClaims claimed} (fencing
 * token bumped) and the consumer seeks to the stored offset; records below it are skipped. Offsets are also
 * committed to Kafka after the storage commits (asynchronously, best effort) so lag-based autoscalers see progress.
 *
 * <p>Batching: a partition's batch goes to the committer when it is complete (at a barrier, a truncation or
 * {@code batchRecords} records), when the loop has no room to evaluate more of the partition's records, or earlier,
 * unfinished, when the committer has nothing else to do; while the committer is busy, batches queue up, and the
 * committer takes the queued batches of a partition together, up to {@code batchRecords} records per transaction
 * (fewer, larger transactions as the backlog grows).
 *
 * <p>Backpressure: the loop <em>holds</em> a record from its evaluation until a transaction takes its batch (in its
 * partition's builder, or waiting in the committer's queue). A partition's staged record is evaluated only while the
 * loop holds fewer than {@code heldRecords} records ({@code queuedBatches * batchRecords}), or the partition itself
 * holds fewer than its share of them ({@code heldRecords} divided by the live partitions, at least 1). So the loop
 * holds at most about twice {@code heldRecords} records plus those of the transaction being committed, and a
 * partition whose batches wait for the aligned-barrier gate can fill only the loop's common room: every other
 * partition keeps its share and reaches the barrier the gate waits for. A partition with records it may not evaluate
 * yet is paused, and resumed once they are evaluated; the rest of one poll stays staged here. When a transaction
 * takes batches, a poll waiting for room is woken.
 *
 * <p>Not thread-safe: {@link #run()} on one thread; {@link #wakeup()} from any.
 */
public final class WriterLoop implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(WriterLoop.class);
    private static final Duration HAND_OVER_WAIT = Duration.ofSeconds(10);

    private final String name;
    private final long groupId;
    private final String topic;
    private final Consumer<byte[], byte[]> consumer;
    private final Committer committer;
    private final RecordEvaluator evaluator;
    private final LazyConnection control;
    private final Retrier retrier;
    private final StopSignal stop;
    private final WriterCounters counters;
    private final int batchRecords;
    private final int heldRecords;
    private final Duration pollTimeout;
    private final Duration closeTimeout;
    private final Map<TopicPartition, PartitionAssignment> states = new HashMap<>();
    private volatile Throwable failure;
    private volatile boolean waitingForRoom;

    WriterLoop(String name, long groupId, String topic, Consumer<byte[], byte[]> consumer, Committer committer,
               RecordEvaluator evaluator, LazyConnection control, Retrier retrier, StopSignal stop,
               WriterCounters counters, int batchRecords, int queuedBatches, Duration pollTimeout,
               Duration closeTimeout) {
        this.name = name;
        this.groupId = groupId;
        this.topic = topic;
        this.consumer = consumer;
        this.committer = committer;
        this.evaluator = evaluator;
        this.control = control;
        this.retrier = retrier;
        this.stop = stop;
        this.counters = counters;
        this.batchRecords = batchRecords;
        this.heldRecords = (int) Math.min(Integer.MAX_VALUE, (long) queuedBatches * batchRecords);
        this.pollTimeout = pollTimeout;
        this.closeTimeout = closeTimeout;
    }

    /**
     * A loop of group {@code config.groupId()} over the partitions of {@code rows} that {@code seals} covers, polling
     * with {@code consumer} (configured for the group, not yet subscribed) and dead-lettering with
     * {@code producer}; it shares the seals it commits or reads with the other loops of {@code seals}. Run
     * {@link #committer()} and then the loop itself on two threads of their own.
     */
    public static WriterLoop create(String name, WriterConfig config, SyncRules rules, ProcessSeals seals,
                                    Consumer<byte[], byte[]> consumer, Producer<byte[], byte[]> producer,
                                    StopSignal stop, WriterCounters counters) {
        WriterTuning tuning = config.tuning();
        RetryPolicy policy = tuning.retryPolicy();
        DeadLetterSink deadLetters = new DeadLetterSink(producer, config.topics().deadLetters(), config.groupId());
        BatchApplier applier = new BatchApplier(config.groupId(), rules.parameterTables());
        WriterLoop[] loop = new WriterLoop[1];
        Committer committer = new Committer(applier, deadLetters, new PeerSeals(config.groupId(), seals),
            StorageConnections.to(config.storage(), name + "-commit"),
            Retrier.of(policy, stop), counters, tuning.gateRecheck(), config.batchRecords(), () -> loop[0].roomMade());
        seals.onNewSeal(committer::peerSealed);
        RecordEvaluator evaluator = new RecordEvaluator(rules, counters);
        loop[0] = new WriterLoop(name, config.groupId(), config.topics().rows(), consumer, committer, evaluator,
            StorageConnections.to(config.storage(), name + "-claim"), Retrier.of(policy, stop), stop, counters,
            config.batchRecords(), tuning.queuedBatches(), tuning.pollTimeout(), tuning.closeTimeout());
        return loop[0];
    }

    /** The committer half of the loop, to run on its own thread. */
    public Runnable committer() {
        return committer;
    }

    /** The fatal failure that ended the loop (its own or its committer's), if any. */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure).or(committer::failure);
    }

    /** Interrupts a blocking poll, e.g. at shutdown. */
    public void wakeup() {
        consumer.wakeup();
    }

    @Override
    public void run() {
        try {
            consumer.subscribe(List.of(topic), new Rebalance());
            while (!stop.isStopped()) {
                if (committer.failure().isPresent()) {
                    return;
                }
                ConsumerRecords<byte[], byte[]> records;
                try {
                    records = consumer.poll(pollTimeout);
                } catch (WakeupException e) {
                    records = ConsumerRecords.empty();
                } catch (InvalidOffsetException e) {
                    throw new IllegalStateException(name + ": the positions " + e.partitions() + " of " + topic
                        + " lie outside the log Kafka holds now (the topic was deleted and created again, or records"
                        + " were deleted): the writer stops, and its next start checks the log and recovers", e);
                }
                stage(records);
                pumpAll();
                commitToKafka(false);
            }
            finish();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception | Error e) {
            if (!stop.isStopped() || !(e instanceof WakeupException)) {
                failure = e;
                LOG.error("{}: writer loop failed", name, e);
            }
        } finally {
            stop.stop();
            try {
                committer.drain(Duration.ofSeconds(1));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            try {
                consumer.close();
            } catch (KafkaException e) {
                LOG.warn("{}: closing the consumer failed: {}", name, e.toString());
            }
            control.close();
        }
    }

    private void stage(ConsumerRecords<byte[], byte[]> records) {
        for (TopicPartition partition : records.partitions()) {
            PartitionAssignment state = states.get(partition);
            if (state == null || !state.isLive()) {
                continue;
            }
            for (ConsumerRecord<byte[], byte[]> record : records.records(partition)) {
                if (record.offset() >= state.nextToRead) {
                    state.staged.add(record);
                    state.nextToRead = record.offset() + 1;
                }
            }
        }
    }

    /** A transaction took batches: a poll waiting for room to evaluate returns at once. */
    private void roomMade() {
        if (waitingForRoom) {
            waitingForRoom = false;
            consumer.wakeup();
        }
    }

    /** Evaluates staged records and submits batches, partition by partition, as far as the loop has room. */
    private void pumpAll() {
        waitingForRoom = true; // a transaction taking batches while this runs makes the next poll return at once
        int held = 0;
        int live = 0;
        for (PartitionAssignment state : states.values()) {
            if (state.isLive()) {
                held += state.heldRecords();
                live++;
            }
        }
        int share = Math.max(1, heldRecords / Math.max(1, live));
        boolean stopped = false;
        for (PartitionAssignment state : states.values()) {
            held = pump(state, held, share);
            stopped |= !state.staged.isEmpty() && state.isLive();
        }
        counters.held(held);
        waitingForRoom = stopped;
    }

    /**
     * Moves {@code state}'s staged records into batches and batches to the committer while the loop, which holds
     * {@code held} records, has room for them (see the class documentation).
     *
     * @return the records the loop holds afterwards
     */
    private int pump(PartitionAssignment state, int held, int share) {
        if (!state.isLive()) {
            if (state.isFenced() && !state.paused) {
                state.staged.clear();
                consumer.pause(List.of(state.topicPartition()));
                state.paused = true;
            }
            return held;
        }
        while (held < heldRecords || state.heldRecords() < share) {
            ConsumerRecord<byte[], byte[]> record = state.staged.poll();
            if (record == null) {
                break;
            }
            held++;
            if (evaluator.add(state.builder, record)) {
                committer.submit(state, state.builder.take());
            }
        }
        boolean full = !state.staged.isEmpty();
        if (!state.builder.isEmpty() && (full || committer.idle())) {
            committer.submit(state, state.builder.take());
        }
        if (full && !state.paused) {
            consumer.pause(List.of(state.topicPartition()));
            state.paused = true;
        } else if (!full && state.paused) {
            consumer.resume(List.of(state.topicPartition()));
            state.paused = false;
        }
        return held;
    }

    /** Graceful end: submits what is evaluated, lets the committer finish, commits offsets to Kafka. */
    private void finish() throws InterruptedException {
        for (PartitionAssignment state : states.values()) {
            if (!state.isLive()) {
                continue;
            }
            if (!state.builder.isEmpty()) {
                PreparedBatch partial = state.builder.take();
                committer.submit(state, partial);
            }
        }
        if (!committer.drain(closeTimeout)) {
            LOG.warn("{}: in-flight commits did not finish within {}; they are handed back", name, closeTimeout);
        }
        commitToKafka(true);
    }

    private void commitToKafka(boolean sync) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (PartitionAssignment state : states.values()) {
            long committed = state.committedOffset();
            if (committed > state.kafkaCommitted) {
                offsets.put(state.topicPartition(), new OffsetAndMetadata(committed));
                state.kafkaCommitted = committed;
            }
        }
        commitToKafka(offsets, sync);
    }

    private void commitToKafka(Map<TopicPartition, OffsetAndMetadata> offsets, boolean sync) {
        if (offsets.isEmpty()) {
            return;
        }
        try {
            if (sync) {
                consumer.commitSync(offsets);
            } else {
                consumer.commitAsync(offsets, (committed, e) -> {
                    if (e != null) {
                        LOG.debug("{}: Kafka offset commit failed (storage holds the offsets): {}", name, e.toString());
                    }
                });
            }
        } catch (KafkaException e) {
            LOG.debug("{}: Kafka offset commit failed (storage holds the offsets): {}", name, e.toString());
        }
    }

    private final class Rebalance implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
            for (PartitionAssignment state : end(partitions)) {
                if (state.committedOffset() > state.kafkaCommitted) {
                    offsets.put(state.topicPartition(), new OffsetAndMetadata(state.committedOffset()));
                }
            }
            commitToKafka(offsets, true);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            end(partitions);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            for (TopicPartition partition : partitions) {
                PartitionClaim claim;
                try {
                    claim = retrier.call("claim of " + partition,
                        () -> PartitionClaims.claim(control.get(), groupId, partition.partition()),
                        (e, attempt, backoff) -> {
                            counters.retried();
                            control.discardIfBroken();
                        });
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new WakeupException();
                } catch (StoppedException e) {
                    throw new WakeupException();
                } catch (Exception e) {
                    throw new KafkaException("Claiming " + partition + " for group " + groupId + " failed", e);
                }
                PartitionAssignment state = new PartitionAssignment(partition, groupId, claim, batchRecords);
                states.put(partition, state);
                consumer.seek(partition, claim.nextOffset());
                LOG.info("{}: claimed {} (token {}) at offset {}, sealed epoch {}", name, partition,
                    claim.fencingToken(), claim.nextOffset(), claim.sealedEpoch());
            }
        }

        private List<PartitionAssignment> end(Collection<TopicPartition> partitions) {
            List<PartitionAssignment> ended = new ArrayList<>();
            for (TopicPartition partition : partitions) {
                PartitionAssignment state = states.remove(partition);
                if (state != null) {
                    state.deactivate();
                    ended.add(state);
                }
            }
            try {
                committer.forget(ended, HAND_OVER_WAIT);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return ended;
        }
    }
}
