package io.tributary.topics.codec;

import io.tributary.topics.TopicRole;
import io.tributary.topics.codec.internals.ChangeBatchEnvelope;
import io.tributary.topics.codec.internals.ChangeEnvelope;
import io.tributary.topics.codec.internals.RowEnvelope;
import io.tributary.topics.codec.internals.SnapshotBatchEnvelope;
import io.tributary.topics.codec.internals.ValueDecoders;
import io.tributary.topics.codec.internals.ValueEncoder;
import io.tributary.topics.codec.internals.WireTypes;
import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.ChangeEventBatch;
import io.tributary.topics.messages.ChangesMessage;
import io.tributary.topics.messages.ChunkTask;
import io.tributary.topics.messages.Marker;
import io.tributary.topics.messages.RecordKey;
import io.tributary.topics.messages.ResolvedDelete;
import io.tributary.topics.messages.ResolvedRow;
import io.tributary.topics.messages.RowKey;
import io.tributary.topics.messages.RowKeyed;
import io.tributary.topics.messages.RowsMessage;
import io.tributary.topics.messages.SnapshotRowBatch;
import io.tributary.topics.messages.SnapshotRowsMessage;
import io.tributary.topics.messages.SnapshotTaskMessage;
import io.tributary.topics.messages.TopicMessage;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Keys and values of one topic: encoding messages into {@code byte[]} records and decoding polled records back.
 * One instance per topic ({@link #CHANGES}, {@link #SNAPSHOT_TASKS}, {@link #SNAPSHOT_ROWS}, {@link #ROWS});
 * stateless and thread-safe.
 *
 * <p>Values are versioned envelopes: UTF-8 JSON {@code {"v":1,"type":"...",...}} (version
 * {@value #FORMAT_VERSION}) for every message but the rows of {@code rows}, the {@link SnapshotRowBatch}es of
 * {@code snapshot-rows} and the change events and {@link ChangeEventBatch}es of {@code changes}, which are written
 * in binary envelopes of version {@value #ROW_ENVELOPE_VERSION} (each field read by its length, so a reader never
 * scans a row); the {@code rows} and {@code changes} codecs read both versions of a row or change event, the
 * {@code snapshot-rows} codec JSON messages and binary batches, and any other version is rejected. Keys are
 * {@link RecordKeys}. Rows and primary keys are carried verbatim. On {@code rows} a {@link ResolvedDelete} is a
 * tombstone: a null value under its row key.
 *
 * <p>Consumers poll {@code byte[]} and call {@link #decode(ConsumerRecord)}: a record that cannot be decoded
 * raises a {@link MessageFormatException} naming its topic, partition and offset, so the consumer can
 * dead-letter it ({@link DeadLetters}) and continue. Values are decoded on their own (a value names its table
 * and key); the key is read only for tombstones.
 *
 * @param <M> the messages of the topic
 */
public final class TopicCodec<M extends TopicMessage> {

    /** The version of the JSON value envelope. */
    public static final int FORMAT_VERSION = ValueEncoder.VERSION;
    /** The version of the binary envelope of the rows of {@code rows}. */
    public static final int ROW_ENVELOPE_VERSION = RowEnvelope.VERSION;

    /** {@code changes}: change events, barriers, window markers, truncations. */
    public static final TopicCodec<ChangesMessage> CHANGES =
        new TopicCodec<>(TopicRole.CHANGES, ChangesMessage.class, WireTypes.CHANGES);
    /** {@code snapshot-tasks}: chunk tasks. */
    public static final TopicCodec<SnapshotTaskMessage> SNAPSHOT_TASKS =
        new TopicCodec<>(TopicRole.SNAPSHOT_TASKS, SnapshotTaskMessage.class, WireTypes.SNAPSHOT_TASKS);
    /** {@code snapshot-rows}: snapshot rows, chunk-done markers, table plans. */
    public static final TopicCodec<SnapshotRowsMessage> SNAPSHOT_ROWS =
        new TopicCodec<>(TopicRole.SNAPSHOT_ROWS, SnapshotRowsMessage.class, WireTypes.SNAPSHOT_ROWS);
    /** {@code rows}: resolved rows and deletes (tombstones), barriers, table-ready markers, truncations. */
    public static final TopicCodec<RowsMessage> ROWS =
        new TopicCodec<>(TopicRole.ROWS, RowsMessage.class, WireTypes.ROWS);

    private final TopicRole role;
    private final Class<M> messageType;
    private final List<String> valueTypes;

    private TopicCodec(TopicRole role, Class<M> messageType, List<String> valueTypes) {
        this.role = role;
        this.messageType = messageType;
        this.valueTypes = valueTypes;
    }

    /** The topic this codec is for. */
    public TopicRole role() {
        return role;
    }

    /** The key bytes of {@code message} written to {@code partition} (only markers depend on the partition). */
    public byte[] encodeKey(M message, int partition) {
        return RecordKeys.encode(message.keyFor(partition));
    }

    /** The value bytes of {@code message}; {@code null} (a tombstone) for a {@link ResolvedDelete}. */
    public byte[] encodeValue(M message) {
        if (message instanceof ResolvedDelete) {
            return null;
        }
        if (role == TopicRole.ROWS && message instanceof ResolvedRow row) {
            return RowEnvelope.encode(row);
        }
        if (role == TopicRole.CHANGES && message instanceof ChangeEvent event) {
            return ChangeEnvelope.encode(event);
        }
        if (message instanceof SnapshotRowBatch batch) {
            return SnapshotBatchEnvelope.encode(batch);
        }
        if (message instanceof ChangeEventBatch batch) {
            return ChangeBatchEnvelope.encode(batch);
        }
        return ValueEncoder.encode(message);
    }

    /**
     * Whether the rows of {@code task} can travel several to a record ({@link SnapshotRowBatch}): its table, chunk
     * and window ids have a UTF-8 form. If not, each row goes in a {@link io.tributary.topics.messages.SnapshotRow}
     * record of its own, whose JSON envelope escapes them.
     */
    public static boolean batchesRowsOf(ChunkTask task) {
        return SnapshotBatchEnvelope.encodable(task.table(), task.chunkId(), task.windowId());
    }

    /**
     * The record of a {@link ChangeEventBatch} in {@code partition} of {@code changes} topic {@code topic}, from its
     * events' own records (each as {@link #recordByKey} wrote it, all in {@code partition}, in order): keyed by the
     * first, the events' values in the batch envelope. Lets a producer size a batch by its events' encoded values
     * without encoding them twice.
     */
    public static ProducerRecord<byte[], byte[]> changeBatchRecord(String topic, int partition,
                                                                   List<ProducerRecord<byte[], byte[]>> events) {
        List<byte[]> values = new ArrayList<>(events.size());
        for (ProducerRecord<byte[], byte[]> event : events) {
            if (event.partition() != partition) {
                throw new IllegalArgumentException("An event of partition " + event.partition()
                    + " cannot join a change event batch of partition " + partition);
            }
            values.add(event.value());
        }
        return new ProducerRecord<>(topic, partition, events.get(0).key(), ChangeBatchEnvelope.encode(values));
    }

    /** The bytes an event whose value has {@code valueLength} bytes adds to a {@link ChangeEventBatch}'s value. */
    public static int batchedChangeSize(int valueLength) {
        return ChangeBatchEnvelope.PER_EVENT_OVERHEAD + valueLength;
    }

    /** The bytes a row of {@code pk} and {@code row} adds to a {@link SnapshotRowBatch}'s value. */
    public static int batchedRowSize(byte[] pk, byte[] row) {
        return SnapshotBatchEnvelope.PER_ROW_OVERHEAD + pk.length + row.length;
    }

    /**
     * The value bytes of {@code message} in envelope version {@code version}: {@link #FORMAT_VERSION}, or on
     * {@code rows} {@link #ROW_ENVELOPE_VERSION} for a row (what {@link #encodeValue(TopicMessage)} writes); for tools
     * writing to readers of an older version. {@code null} for a {@link ResolvedDelete}.
     *
     * @throws IllegalArgumentException if this codec does not write {@code message} in that version
     */
    public byte[] encodeValue(M message, int version) {
        if (message instanceof ResolvedDelete) {
            return null;
        }
        if (version == FORMAT_VERSION) {
            return ValueEncoder.encode(message);
        }
        if (version == ROW_ENVELOPE_VERSION && (role == TopicRole.ROWS && message instanceof ResolvedRow
            || role == TopicRole.CHANGES && message instanceof ChangeEvent
            || message instanceof SnapshotRowBatch || message instanceof ChangeEventBatch)) {
            return encodeValue(message);
        }
        throw new IllegalArgumentException("No envelope version " + version + " for "
            + message.getClass().getSimpleName() + " on " + role.suffix());
    }

    /**
     * The record of {@code message} in partition {@code partition} of {@code topic}. For a row-keyed message the
     * caller guarantees {@code partition} is its key's partition (e.g. a stream worker writing a key into the
     * partition it read it from, the topics being co-partitioned).
     */
    public ProducerRecord<byte[], byte[]> record(String topic, int partition, M message) {
        return new ProducerRecord<>(topic, partition, encodeKey(message, partition), encodeValue(message));
    }

    /**
     * The record of row-keyed {@code message} in {@code topic} with {@code partitions} partitions, in the
     * partition of its key ({@link Partitioning#partitionFor(byte[], int)}), set explicitly.
     *
     * @throws IllegalArgumentException if {@code message} is not {@link RowKeyed}
     */
    public ProducerRecord<byte[], byte[]> recordByKey(String topic, int partitions, M message) {
        if (!(message instanceof RowKeyed)) {
            throw new IllegalArgumentException(message.getClass().getSimpleName() + " is not row-keyed: send it to"
                + " explicit partitions (markers: recordsToEveryPartition; chunk tasks: Partitioning.taskPartition)");
        }
        byte[] key = RecordKeys.encode(((RowKeyed) message).rowKey());
        return new ProducerRecord<>(topic, Partitioning.partitionFor(key, partitions), key, encodeValue(message));
    }

    /**
     * One record of {@code marker} for each partition {@code 0..partitions-1} of {@code topic}, each keyed by the
     * {@link io.tributary.topics.messages.MarkerKey} of its partition.
     *
     * @throws IllegalArgumentException if {@code marker} is not a {@link Marker}
     */
    public List<ProducerRecord<byte[], byte[]>> recordsToEveryPartition(String topic, int partitions, M marker) {
        if (!(marker instanceof Marker)) {
            throw new IllegalArgumentException(marker.getClass().getSimpleName() + " is not a marker");
        }
        byte[] value = encodeValue(marker);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(partitions);
        for (int p = 0; p < partitions; p++) {
            records.add(new ProducerRecord<>(topic, p, encodeKey(marker, p), value));
        }
        return records;
    }

    /**
     * The message of a polled record.
     *
     * @throws MessageFormatException if the record is not a valid message of this topic
     */
    public M decode(ConsumerRecord<byte[], byte[]> record) {
        return decode(RecordPosition.of(record), record.key(), record.value());
    }

    /**
     * The message with key {@code key} and value {@code value}, found at {@code position}.
     *
     * @throws MessageFormatException if they are not a valid message of this topic
     */
    public M decode(RecordPosition position, byte[] key, byte[] value) {
        if (value == null) {
            return tombstone(position, key);
        }
        if (role == TopicRole.ROWS && RowEnvelope.isBinary(value)) {
            return messageType.cast(Decoding.guard(position, "", () -> RowEnvelope.decode(value)));
        }
        if (role == TopicRole.SNAPSHOT_ROWS && RowEnvelope.isBinary(value)) {
            return messageType.cast(Decoding.guard(position, "", () -> SnapshotBatchEnvelope.decode(value)));
        }
        if (role == TopicRole.CHANGES && ChangeEnvelope.isOne(value)) {
            return messageType.cast(Decoding.guard(position, "", () -> ChangeEnvelope.decode(value)));
        }
        if (role == TopicRole.CHANGES && ChangeBatchEnvelope.isBinary(value)) {
            return messageType.cast(Decoding.guard(position, "", () -> ChangeBatchEnvelope.decode(value)));
        }
        TopicMessage message = Decoding.guard(position, "",
            () -> ValueDecoders.decode(value, valueTypes, role.suffix()));
        return messageType.cast(message);
    }

    private M tombstone(RecordPosition position, byte[] key) {
        if (role != TopicRole.ROWS) {
            throw new MessageFormatException(position, "null value (only rows carries tombstones)", null);
        }
        RecordKey recordKey = RecordKeys.decode(position, key);
        if (!(recordKey instanceof RowKey)) {
            throw new MessageFormatException(position, "tombstone under non-row key " + recordKey, null);
        }
        return messageType.cast(ResolvedDelete.of((RowKey) recordKey));
    }

    /** A Kafka value serializer of this topic's messages ({@code null} for a {@link ResolvedDelete}). */
    public Serializer<M> serializer() {
        return new MessageSerializer<>(this);
    }

    /**
     * A Kafka value deserializer of this topic's messages. It sees values only: Kafka hands tombstones to the
     * application as {@code null} values, and errors carry the topic but no partition or offset (Kafka wraps them
     * in a {@code RecordDeserializationException} that has both). Consumers on the hot path should poll
     * {@code byte[]} and use {@link #decode(ConsumerRecord)} instead.
     */
    public Deserializer<M> deserializer() {
        return new MessageDeserializer<>(this);
    }

    @Override
    public String toString() {
        return "TopicCodec[" + role.suffix() + "]";
    }
}
