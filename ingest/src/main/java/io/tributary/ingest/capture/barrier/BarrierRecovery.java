package io.tributary.ingest.capture.barrier;

import io.tributary.topics.codec.MessageFormatException;
import io.tributary.topics.codec.TopicCodec;
import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.ChangeEventBatch;
import io.tributary.topics.messages.ChangesMessage;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.TableTruncate;
import io.tributary.topics.messages.TableWindowMarker;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the newest barrier of every partition of {@code changes}, so epochs keep increasing across restarts and
 * takeovers: the previous instance's epochs live in the topic itself. Reads each partition backwards in growing
 * windows from its end until a barrier is found (barriers are frequent, so the first window nearly always has
 * one), and the barrier stored beside the source offsets ({@link StoredBarrier}), which retention of
 * {@code changes} does not remove. Every message read on the way is after that barrier (or at most at its LSN), so
 * the highest commit LSN among them is what the previous instance committed beyond its last barrier; as retention
 * may have removed those messages too, the position the engine's stored offsets resume after counts as well. Reads
 * committed records only ({@code read_committed}): a barrier of an aborted ingest transaction never counts, and
 * called after ingest's producer fenced its predecessor, no transaction of that predecessor is still open to hold
 * the read back. Uses its own consumer without a group; records that do not
 * decode are skipped.
 */
public final class BarrierRecovery {

    private static final Logger LOG = LoggerFactory.getLogger(BarrierRecovery.class);
    private static final int FIRST_WINDOW = 512;
    private static final Duration POLL = Duration.ofMillis(200);

    private BarrierRecovery() {
    }

    /**
     * Reads the newest barrier of each partition {@code 0..partitions-1} of {@code topic}.
     *
     * @param kafkaProperties client properties ({@code bootstrap.servers}, security)
     * @param timeout         how long the whole scan may take
     * @throws IllegalStateException if the scan does not finish within {@code timeout}
     */
    public static RecoveredBarriers recover(Map<String, String> kafkaProperties, String topic, int partitions,
                                            Duration timeout) {
        return recover(kafkaProperties, topic, partitions, Optional.empty(), timeout);
    }

    /**
     * Reads the newest barrier of each partition {@code 0..partitions-1} of {@code topic}, and the barrier
     * {@code stored} holds (its topic read to its last stable offset).
     *
     * @param kafkaProperties client properties ({@code bootstrap.servers}, security)
     * @param timeout         how long the whole scan may take
     * @throws IllegalStateException if the scan does not finish within {@code timeout}
     */
    public static RecoveredBarriers recover(Map<String, String> kafkaProperties, String topic, int partitions,
                                            StoredBarrier stored, Duration timeout) {
        return recover(kafkaProperties, topic, partitions, Optional.of(stored), timeout);
    }

    private static RecoveredBarriers recover(Map<String, String> kafkaProperties, String topic, int partitions,
                                             Optional<StoredBarrier> stored, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Properties props = new Properties();
        props.putAll(kafkaProperties);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        Map<Integer, Barrier> newest = new HashMap<>();
        Lsn[] highestCommitted = {Lsn.ZERO};
        try (KafkaConsumer<byte[], byte[]> consumer =
                 new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            for (int p = 0; p < partitions; p++) {
                TopicPartition partition = new TopicPartition(topic, p);
                consumer.assign(List.of(partition));
                long begin = consumer.beginningOffsets(List.of(partition)).get(partition);
                long end = consumer.endOffsets(List.of(partition)).get(partition);
                long to = end;
                long window = FIRST_WINDOW;
                Barrier found = null;
                while (found == null && to > begin) {
                    long from = Math.max(begin, to - window);
                    found = newestIn(consumer, partition, from, to, deadline, highestCommitted);
                    to = from;
                    window *= 4;
                }
                if (found != null) {
                    newest.put(p, found);
                }
            }
            Optional<Barrier> kept = stored.isPresent()
                ? readStored(consumer, stored.get(), deadline, highestCommitted) : Optional.empty();
            RecoveredBarriers recovered = new RecoveredBarriers(partitions, newest, kept, highestCommitted[0]);
            LOG.info("Newest barrier in {}: {}, stored: {} (partitions behind it: {}); highest commit LSN after it: {}",
                topic, recovered.latest().map(Object::toString).orElse("none"),
                kept.map(Object::toString).orElse("none"), recovered.partitionsBehind(), highestCommitted[0]);
            return recovered;
        }
    }

    /**
     * The barrier {@code stored} holds; raises {@code highestCommitted[0]} to the position the engine's stored offsets
     * resume after (every transaction committed to {@code changes} lies at or before it, even once retention removed
     * those records).
     */
    private static Optional<Barrier> readStored(KafkaConsumer<byte[], byte[]> consumer, StoredBarrier stored,
                                                long deadline, Lsn[] highestCommitted) {
        TopicPartition partition = new TopicPartition(stored.topic(), 0);
        consumer.assign(List.of(partition));
        consumer.seekToBeginning(List.of(partition));
        long end = consumer.endOffsets(List.of(partition)).get(partition);
        Optional<Barrier> newest = Optional.empty();
        while (consumer.position(partition) < end) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("Timed out reading the stored barrier in " + partition);
            }
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                if (stored.isKey(record.key())) {
                    newest = StoredBarrier.parseNullable(record.value());
                } else {
                    stored.resumePosition(record.key(), record.value())
                        .ifPresent(lsn -> highestCommitted[0] = Lsn.max(highestCommitted[0], lsn));
                }
            }
        }
        return newest;
    }

    /** The newest barrier in offsets {@code [from, to)}; raises {@code highestCommitted[0]} to other messages' LSNs. */
    private static Lsn commitLsn(ChangesMessage message) {
        if (message instanceof ChangeEvent change) {
            return change.lsn();
        }
        if (message instanceof ChangeEventBatch batch) {
            return batch.events().get(batch.events().size() - 1).lsn();
        }
        if (message instanceof TableTruncate truncate) {
            return truncate.lsn();
        }
        if (message instanceof TableWindowMarker marker) {
            return marker.lsn();
        }
        return ((Barrier) message).lsn();
    }

    private static Barrier newestIn(KafkaConsumer<byte[], byte[]> consumer, TopicPartition partition, long from,
                                    long to, long deadline, Lsn[] highestCommitted) {
        consumer.seek(partition, from);
        Barrier newest = null;
        while (consumer.position(partition) < to) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("Timed out reading the newest barrier of " + partition);
            }
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                if (record.offset() >= to) {
                    break;
                }
                try {
                    ChangesMessage message = TopicCodec.CHANGES.decode(record);
                    if (message instanceof Barrier barrier) {
                        newest = barrier;
                    } else {
                        highestCommitted[0] = Lsn.max(highestCommitted[0], commitLsn(message));
                    }
                } catch (MessageFormatException e) {
                    LOG.warn("Skipping an undecodable record while looking for barriers: {}", e.getMessage());
                }
            }
        }
        return newest;
    }
}
