package io.tributary.ingest.capture.internals;

import io.tributary.topics.codec.TopicCodec;
import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.ChangeEventBatch;
import io.tributary.topics.messages.ChangesMessage;
import io.tributary.topics.messages.RowKey;
import io.tributary.topics.messages.RowKeyed;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Writes {@code changes} in Kafka transactions: row-keyed messages to their key's partition, markers to every
 * partition, and the source offsets a transaction reaches to {@code ingest-offsets}, through one transactional
 * producer ({@code acks=all}, idempotent). Change events travel several to a record ({@link ChangeEventBatch}): the
 * events of a partition gather until anything else is sent, the transaction commits, or they reach
 * {@link #BATCH_BYTES}; a partition's lone event, or one larger than that, goes in a record of its own. A
 * {@code read_committed} reader sees a transaction's records, in every partition, and its offsets all at once or
 * never: a run that dies, is fenced, or has a record refused part-way through leaves nothing of the open
 * transaction, and the next run resumes from the last committed offsets.
 *
 * <p>Opening the producer ({@link #open}) fences every earlier producer with the same transactional id (a zombie
 * ingest of the same slot and deployment) and aborts its open transaction; after that, that producer's commits fail.
 * Not thread-safe.
 */
final class ChangesProducer implements AutoCloseable {

    /** The most bytes of events one {@link ChangeEventBatch} record gathers. */
    static final int BATCH_BYTES = 128 * 1024;

    private final KafkaProducer<byte[], byte[]> producer;
    private final String topic;
    private final int partitions;
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    /** Change events not yet sent, by partition, each as the record it would be on its own. */
    private final NavigableMap<Integer, PendingEvents> pending = new TreeMap<>();
    private boolean inTransaction;
    private long sent;

    private ChangesProducer(KafkaProducer<byte[], byte[]> producer, String topic, int partitions) {
        this.producer = producer;
        this.topic = topic;
        this.partitions = partitions;
    }

    /**
     * A producer with {@code transactionalId}, its transactions initialised: returns once every earlier producer
     * with that id is fenced and its open transaction aborted.
     */
    static ChangesProducer open(Map<String, String> kafkaProperties, String clientId, String transactionalId,
                                String topic, int partitions) {
        Properties props = new Properties();
        props.putAll(kafkaProperties);
        props.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "5");
        props.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, "5");
        props.putIfAbsent(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(256 * 1024));
        props.putIfAbsent(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        props.putIfAbsent(ProducerConfig.BUFFER_MEMORY_CONFIG, Long.toString(128L * 1024 * 1024));
        KafkaProducer<byte[], byte[]> producer =
            new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
        try {
            producer.initTransactions();
        } catch (RuntimeException e) {
            producer.close(Duration.ZERO);
            throw e;
        }
        return new ChangesProducer(producer, topic, partitions);
    }

    /** Opens a transaction; every send until {@link #commit()} or {@link #abort()} belongs to it. */
    void begin() {
        if (inTransaction) {
            throw new IllegalStateException("A transaction on " + topic + " is open already");
        }
        failure.set(null);
        producer.beginTransaction();
        inTransaction = true;
    }

    /**
     * Sends {@code message} in the open transaction; a failure surfaces at {@link #commit()}. A row too large for
     * Kafka fails as a {@link RecordTooLargeException} that names the row and the limits to raise.
     */
    void send(ChangesMessage message) {
        requireTransaction();
        if (message instanceof ChangeEvent event) {
            gather(event);
        } else if (message instanceof RowKeyed keyed) {
            sendAllPending();
            sendRowKeyed(keyed.rowKey(), TopicCodec.CHANGES.recordByKey(topic, partitions, message));
        } else {
            sendAllPending();
            for (ProducerRecord<byte[], byte[]> record
                : TopicCodec.CHANGES.recordsToEveryPartition(topic, partitions, message)) {
                send(record);
            }
        }
    }

    /** Adds {@code event} to its partition's pending events; sends them once they reach {@link #BATCH_BYTES}. */
    private void gather(ChangeEvent event) {
        ProducerRecord<byte[], byte[]> record = TopicCodec.CHANGES.recordByKey(topic, partitions, event);
        int size = TopicCodec.batchedChangeSize(record.value().length);
        if (size > BATCH_BYTES) {
            sendPending(record.partition());
            sendRowKeyed(event.rowKey(), record);
            return;
        }
        PendingEvents events = pending.computeIfAbsent(record.partition(), p -> new PendingEvents());
        if (events.bytes + size > BATCH_BYTES) {
            sendPending(record.partition());
            events = pending.computeIfAbsent(record.partition(), p -> new PendingEvents());
        }
        events.add(event.rowKey(), record, size);
    }

    /** Sends every partition's pending events, in partition order. */
    private void sendAllPending() {
        for (Map.Entry<Integer, PendingEvents> next = pending.pollFirstEntry(); next != null;
             next = pending.pollFirstEntry()) {
            send(next.getKey(), next.getValue());
        }
    }

    /** Sends {@code partition}'s pending events, if any. */
    private void sendPending(int partition) {
        PendingEvents events = pending.remove(partition);
        if (events != null) {
            send(partition, events);
        }
    }

    /** Sends {@code events} of {@code partition}: one alone as its own record, several as a batch. */
    private void send(int partition, PendingEvents events) {
        if (events.records.size() == 1) {
            sendRowKeyed(events.first, events.records.get(0));
        } else {
            sendRowKeyed(events.first, TopicCodec.changeBatchRecord(topic, partition, events.records));
        }
    }

    private void sendRowKeyed(RowKey key, ProducerRecord<byte[], byte[]> record) {
        sendInTransaction(record, (metadata, error) -> {
            if (error != null) {
                failure.compareAndSet(null, error instanceof RecordTooLargeException
                    ? new RecordTooLargeException(oversized(key, error), error) : error);
            }
        });
    }

    /** Sends {@code record} as it is (explicit topic and partition) in the open transaction. */
    void send(ProducerRecord<byte[], byte[]> record) {
        requireTransaction();
        sendAllPending();
        sendInTransaction(record, (metadata, error) -> {
            if (error != null) {
                failure.compareAndSet(null, error);
            }
        });
    }

    /**
     * Hands {@code record} to the producer. A record the producer refuses at once (one too large for its limits)
     * puts the transaction in an error state, and every later send of it then throws: that throw is reported with the
     * first failure of the transaction (which names the row and the limits to raise), and the transaction aborted.
     */
    private void sendInTransaction(ProducerRecord<byte[], byte[]> record, Callback callback) {
        try {
            producer.send(record, callback);
        } catch (KafkaException e) {
            Exception first = failure.get();
            ChangesDeliveryException failed = new ChangesDeliveryException("Kafka refused a record of " + topic
                + " (the transaction is aborted): " + (first != null ? first.getMessage() : e.getMessage()),
                first != null ? first : e);
            abortQuietly(failed);
            throw failed;
        }
        sent++;
    }

    private void requireTransaction() {
        if (!inTransaction) {
            throw new IllegalStateException("No transaction on " + topic + " is open");
        }
    }

    private String oversized(RowKey key, Exception error) {
        return "The change of " + key.table().quoted() + " key " + key.pk().json() + " is too large for Kafka ("
            + error.getMessage() + "). Raise the limits above the largest row: kafka.properties.max.request.size and"
            + " kafka.properties.buffer.memory, and max.message.bytes of the topics " + topic + ", its snapshot-rows"
            + " and rows (kafka-configs --alter); then restart: ingest resumes at this change";
    }

    /**
     * Commits the open transaction: returns once Kafka holds every record sent in it, visible to
     * {@code read_committed} readers. If any record failed, the transaction is aborted instead (none of its records
     * is ever visible) and this throws.
     *
     * @throws ChangesDeliveryException if a record was not acknowledged or the commit failed (the transaction is
     *                                  aborted, or this producer was fenced)
     */
    void commit() {
        requireTransaction();
        try {
            sendAllPending();
            producer.flush();
            Exception error = failure.get();
            if (error != null) {
                throw new ChangesDeliveryException("Kafka did not acknowledge a record of " + topic
                    + " (the transaction is aborted): " + error.getMessage(), error);
            }
            producer.commitTransaction();
            inTransaction = false;
        } catch (ChangesDeliveryException e) {
            abortQuietly(e);
            throw e;
        } catch (KafkaException e) {
            Exception first = failure.get();
            ChangesDeliveryException failed = new ChangesDeliveryException("Committing a transaction on " + topic
                + " failed: " + (first != null ? first.getMessage() : e.getMessage()), first != null ? first : e);
            abortQuietly(failed);
            throw failed;
        }
    }

    /** Aborts the open transaction, if any: none of its records is ever visible. */
    void abort() {
        pending.clear();
        if (inTransaction) {
            inTransaction = false;
            producer.abortTransaction();
        }
    }

    private void abortQuietly(Exception cause) {
        pending.clear();
        if (!inTransaction) {
            return;
        }
        inTransaction = false;
        if (cause.getCause() instanceof ProducerFencedException) {
            return;
        }
        try {
            producer.abortTransaction();
        } catch (KafkaException e) {
            cause.addSuppressed(e);
        }
    }

    /** Records sent so far. */
    long sent() {
        return sent;
    }

    /** Closes the producer; an open transaction is aborted (by the broker, or by the next producer's fencing). */
    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
    }

    /** Closes without waiting for unsent records (they are dropped, as in a crash). */
    void closeNow() {
        producer.close(Duration.ZERO);
    }

    /** A partition's events not yet sent: their records, the first one's key, their bytes in a batch. */
    private static final class PendingEvents {
        private final List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        private RowKey first;
        private int bytes;

        void add(RowKey key, ProducerRecord<byte[], byte[]> record, int size) {
            if (records.isEmpty()) {
                first = key;
            }
            records.add(record);
            bytes += size;
        }
    }
}
