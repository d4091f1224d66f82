package io.tributary.ingest.capture;

import static org.awaitility.Awaitility.await;

import io.tributary.topics.codec.TopicCodec;
import io.tributary.topics.messages.ChangeEventBatch;
import io.tributary.topics.messages.ChangesMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads every committed record of {@code changes} from the beginning ({@code read_committed}, as every stage reads
 * it), decoded, in partition order; the events of a {@link ChangeEventBatch} each as a message of their own, at the
 * batch's offset. Test support.
 */
final class ChangesTopic implements AutoCloseable {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<Received> received = new ArrayList<>();
    private long records;

    ChangesTopic(Properties kafka, String topic, int partitions) {
        Properties props = new Properties();
        props.putAll(kafka);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        this.consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> all = IntStream.range(0, partitions).mapToObj(p -> new TopicPartition(topic, p))
            .collect(Collectors.toList());
        consumer.assign(all);
        consumer.seekToBeginning(all);
    }

    /** The records read so far (a batch counts once). */
    long records() {
        return records;
    }

    /** Polls once and returns everything read so far. */
    List<Received> poll() {
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
            records++;
            ChangesMessage message = TopicCodec.CHANGES.decode(record);
            List<? extends ChangesMessage> messages =
                message instanceof ChangeEventBatch batch ? batch.events() : List.of(message);
            for (ChangesMessage each : messages) {
                received.add(new Received(record.partition(), record.offset(), record.timestamp(), each));
            }
        }
        return new ArrayList<>(received);
    }

    /** Polls until everything read satisfies {@code condition}, and returns it. */
    List<Received> awaitUntil(Duration timeout, Predicate<List<Received>> condition) {
        await().atMost(timeout).pollInterval(Duration.ofMillis(50)).until(() -> condition.test(poll()));
        return poll();
    }

    /** The records of {@code partition}, in offset order. */
    static List<Received> partition(List<Received> all, int partition) {
        return all.stream().filter(r -> r.partition() == partition).collect(Collectors.toList());
    }

    @Override
    public void close() {
        consumer.close();
    }
}
