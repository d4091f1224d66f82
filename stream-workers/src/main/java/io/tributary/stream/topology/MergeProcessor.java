package io.tributary.stream.topology;

import io.tributary.stream.internals.KafkaMergeStore;
import io.tributary.stream.merge.DropReason;
import io.tributary.stream.merge.MergeRules;
import io.tributary.topics.TopicNames;
import io.tributary.topics.codec.DeadLetters;
import io.tributary.topics.codec.MessageFormatException;
import io.tributary.topics.codec.Partitioning;
import io.tributary.topics.codec.RecordKeys;
import io.tributary.topics.codec.RecordPosition;
import io.tributary.topics.codec.TopicCodec;
import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.ChangeEventBatch;
import io.tributary.topics.messages.ChangesMessage;
import io.tributary.topics.messages.RowKey;
import io.tributary.topics.messages.RowKeyed;
import io.tributary.topics.messages.RowsMessage;
import io.tributary.topics.messages.SnapshotRow;
import io.tributary.topics.messages.SnapshotRowBatch;
import io.tributary.topics.messages.SnapshotRowsMessage;
import io.tributary.topics.messages.TopicMessage;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The merge of one task (one partition of {@code changes} and of {@code snapshot-rows}): decodes each record,
 * applies {@link MergeRules} over the task's {@link KafkaMergeStore} and forwards the results to {@code rows}, one
 * record per row (a {@link SnapshotRowBatch} read as one record is written as a record per row it emits, under the
 * row's own key, so {@code rows} stays compacted per key).
 * Records that cannot be decoded, or row-keyed records in the wrong partition, go to {@code dead-letters}.
 * Released per-key state is deleted a little after every record and, when idle, on a wall-clock punctuation.
 *
 * <p>A barrier written less than {@link #PROMPT_COMMIT_WITHIN} ago asks for a commit at once: the rows before it
 * become visible to the storage writers (who read committed only) without waiting for the commit interval, so a
 * checkpoint covering a change follows it within about the barrier interval while the workers keep up. While they
 * work through a backlog, barriers are older than that, and while the task merges snapshot rows (it processed some
 * less than {@link #PROMPT_COMMIT_WITHIN} ago) a barrier does not ask either: commits stay at the commit interval,
 * which is what throughput needs. Under exactly-once every commit is a Kafka transaction over every partition the
 * thread wrote, so the asks of the thread's tasks are gathered: the commit is made once the thread's last task has
 * processed the barrier ({@link PromptCommits}), one transaction per barrier and stream thread.
 */
final class MergeProcessor implements Processor<byte[], byte[], byte[], byte[]> {

    /** Stage name in dead-letter headers. */
    static final String STAGE = "stream-worker";

    private static final Logger LOG = LoggerFactory.getLogger(MergeProcessor.class);
    private static final int RELEASE_PER_RECORD = 64;
    private static final int RELEASE_PER_PUNCTUATION = 20_000;
    private static final Duration RELEASE_INTERVAL = Duration.ofSeconds(1);
    /** How recent a barrier must be to ask for a commit at once (see the class documentation). */
    static final Duration PROMPT_COMMIT_WITHIN = Duration.ofSeconds(2);

    private final TopicNames names;
    private final int partitions;
    private ProcessorContext<byte[], byte[]> context;
    private KafkaMergeStore store;
    private MergeRules rules;
    /** When this task last processed snapshot rows (wall clock, ms); empty before it did. */
    private OptionalLong snapshotRowsAtMs = OptionalLong.empty();

    private final PromptCommits.PerThread promptCommits;
    /** The processing thread's prompt commits, once this task processed a record. */
    private PromptCommits threadCommits;

    MergeProcessor(TopicNames names, int partitions, PromptCommits.PerThread promptCommits) {
        this.names = names;
        this.partitions = partitions;
        this.promptCommits = promptCommits;
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> processorContext) {
        this.context = processorContext;
        this.store = new KafkaMergeStore(context.getStateStore(MergeTopology.STATE_STORE),
            context.getStateStore(MergeTopology.KEYS_STORE));
        this.rules = new MergeRules(store, this::dropped);
        context.schedule(RELEASE_INTERVAL, PunctuationType.WALL_CLOCK_TIME,
            now -> store.releaseSome(RELEASE_PER_PUNCTUATION));
        context.schedule(PromptCommits.GATHER_LIMIT.dividedBy(2), PunctuationType.WALL_CLOCK_TIME, now -> {
            if (threadCommits != null && threadCommits.overdue(context.taskId(), now)) {
                context.commit();
            }
        });
    }

    @Override
    public void close() {
        if (threadCommits != null) {
            threadCommits.unregister(context.taskId());
        }
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        RecordMetadata metadata = context.recordMetadata().orElseThrow(
            () -> new IllegalStateException("The merge processes records read from its input topics only"));
        RecordPosition position = RecordPosition.of(metadata.topic(), metadata.partition(), metadata.offset());
        if (threadCommits == null) {
            threadCommits = promptCommits.forCurrentThread();
            threadCommits.register(context.taskId());
        }
        TopicMessage message;
        List<RowsMessage> output;
        RowKeyBytes keys;
        try {
            message = decode(position, record);
            keys = checkPartition(position, message);
            output = message instanceof ChangesMessage change
                ? rules.apply(change) : rules.apply((SnapshotRowsMessage) message);
        } catch (MessageFormatException | MisroutedRecordException e) {
            deadLetter(record, metadata, e);
            return;
        }
        for (RowsMessage out : output) {
            byte[] key = keys.keyOf(out, metadata.partition());
            context.forward(new Record<>(key, TopicCodec.ROWS.encodeValue(out), record.timestamp()),
                MergeTopology.ROWS_SINK);
        }
        if (store.hasPendingReleases()) {
            store.releaseSome(RELEASE_PER_RECORD);
        }
        long now = context.currentSystemTimeMs();
        if (message instanceof SnapshotRow || message instanceof SnapshotRowBatch) {
            snapshotRowsAtMs = OptionalLong.of(now);
        } else if (message instanceof Barrier barrier) {
            boolean asks = now - record.timestamp() < PROMPT_COMMIT_WITHIN.toMillis() && !mergesSnapshotRows(now);
            if (threadCommits.barrier(context.taskId(), barrier.epoch(), asks, now)) {
                context.commit();
            }
        }
    }

    private boolean mergesSnapshotRows(long now) {
        return snapshotRowsAtMs.isPresent() && now - snapshotRowsAtMs.getAsLong() < PROMPT_COMMIT_WITHIN.toMillis();
    }

    private TopicMessage decode(RecordPosition position, Record<byte[], byte[]> record) {
        if (position.topic().equals(names.changes())) {
            return TopicCodec.CHANGES.decode(position, record.key(), record.value());
        } else if (position.topic().equals(names.snapshotRows())) {
            return TopicCodec.SNAPSHOT_ROWS.decode(position, record.key(), record.value());
        }
        throw new IllegalStateException("The merge does not read topic " + position.topic());
    }

    /**
     * The canonical key bytes of the rows of a row-keyed message, a {@link SnapshotRowBatch} or a
     * {@link ChangeEventBatch}, after checking that each sits in its key's partition (a batch with one misrouted row
     * is dead-lettered whole, before the merge sees any of it).
     */
    private RowKeyBytes checkPartition(RecordPosition position, TopicMessage message) {
        if (message instanceof RowKeyed rowKeyed) {
            return RowKeyBytes.single(keyBytes(position, rowKeyed.rowKey()));
        }
        if (message instanceof SnapshotRowBatch batch) {
            return keysOf(position, batch.rows());
        }
        if (message instanceof ChangeEventBatch batch) {
            return keysOf(position, batch.events());
        }
        return RowKeyBytes.NONE;
    }

    private RowKeyBytes keysOf(RecordPosition position, List<? extends RowKeyed> batch) {
        RowKeyBytes keys = RowKeyBytes.sized(batch.size());
        for (RowKeyed row : batch) {
            keys.add(row.pk(), keyBytes(position, row.rowKey()));
        }
        return keys;
    }

    private byte[] keyBytes(RecordPosition position, RowKey key) {
        byte[] bytes = RecordKeys.encode(key);
        int expected = Partitioning.partitionFor(bytes, partitions);
        if (expected != position.partition()) {
            throw new MisroutedRecordException(position, key, expected);
        }
        return bytes;
    }

    private void deadLetter(Record<byte[], byte[]> record, RecordMetadata metadata, RuntimeException error) {
        LOG.warn("Dead-lettering the record at {}-{}@{}: {}", metadata.topic(), metadata.partition(),
            metadata.offset(), error.getMessage());
        ConsumerRecord<byte[], byte[]> poison = new ConsumerRecord<>(metadata.topic(), metadata.partition(),
            metadata.offset(), record.timestamp(), TimestampType.CREATE_TIME,
            record.key() == null ? -1 : record.key().length, record.value() == null ? -1 : record.value().length,
            record.key(), record.value(), record.headers(), Optional.empty());
        ProducerRecord<byte[], byte[]> letter = DeadLetters.record(names.deadLetters(), poison, STAGE, error);
        context.forward(new Record<>(letter.key(), letter.value(), record.timestamp(), letter.headers()),
            MergeTopology.DEAD_LETTERS_SINK);
    }

    private void dropped(TopicMessage message, DropReason reason) {
        if (LOG.isDebugEnabled()) {
            LOG.debug("Dropped {} in partition {}: {}", message, context.taskId().partition(), reason);
        }
    }
}
