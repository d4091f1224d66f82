package io.tributary.testing.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerInterceptor;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerInterceptor;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Injects a fault into a real Kafka producer at one record, through Kafka's own interceptor hook
 * ({@code interceptor.classes}), so a test can hit the exact point it means without replacing the client. The first
 * record sent to {@link #TOPIC} whose value contains {@link #VALUE_CONTAINS} (UTF-8) gets the fault of
 * {@link #ACTION}; every other record, and that one's later re-sends through the same client, pass unchanged.
 *
 * <ul>
 *   <li>{@code refuse}: the record is replaced by one larger than any request, so the producer refuses it
 *       client-side ({@code RecordTooLargeException} in its callback) while later sends go on.</li>
 *   <li>{@code misroute}: the record is sent to a partition that does not exist, so the producer fails it with a
 *       retriable {@code TimeoutException} in its callback once {@code max.block.ms} has passed, while later sends
 *       go on.</li>
 *   <li>{@code halt}: the JVM halts (as {@code kill -9} would) just before the record is handed to the producer,
 *       after Kafka acknowledged every record sent to {@link #TOPIC} before it (at most 30 s of waiting).</li>
 * </ul>
 *
 * <p>Also a consumer interceptor that changes nothing, so the same client properties can be handed to every client
 * of a component. Thread-safe. Test support.
 */
public final class RecordFaults implements ProducerInterceptor<byte[], byte[]>, ConsumerInterceptor<byte[], byte[]> {

    /** Client property: the topic whose records are inspected. */
    public static final String TOPIC = "tributary.test.fault.topic";
    /** Client property: the text the value of the faulted record contains. */
    public static final String VALUE_CONTAINS = "tributary.test.fault.value.contains";
    /** Client property: {@code refuse}, {@code misroute} or {@code halt}. */
    public static final String ACTION = "tributary.test.fault.action";

    private static final int OVERSIZED_BYTES = 16 * 1024 * 1024;
    private static final int MISSING_PARTITION = 100_000;
    private static final Duration ACK_WAIT = Duration.ofSeconds(30);

    private final AtomicBoolean fired = new AtomicBoolean();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong acknowledged = new AtomicLong();
    private String topic;
    private byte[] needle;
    private String action;

    /** The client properties that fault the first record of {@code topic} containing {@code text}. */
    public static Map<String, String> properties(String topic, String text, String action) {
        Map<String, String> props = new HashMap<>();
        props.put("interceptor.classes", RecordFaults.class.getName());
        props.put(TOPIC, topic);
        props.put(VALUE_CONTAINS, text);
        props.put(ACTION, action);
        return props;
    }

    @Override
    public void configure(Map<String, ?> configs) {
        Object t = configs.get(TOPIC);
        Object v = configs.get(VALUE_CONTAINS);
        Object a = configs.get(ACTION);
        topic = t == null ? null : t.toString();
        needle = v == null ? null : v.toString().getBytes(StandardCharsets.UTF_8);
        action = a == null ? "refuse" : a.toString();
        if (!"refuse".equals(action) && !"misroute".equals(action) && !"halt".equals(action)) {
            throw new IllegalArgumentException(ACTION + " must be refuse, misroute or halt, got " + action);
        }
    }

    @Override
    public ProducerRecord<byte[], byte[]> onSend(ProducerRecord<byte[], byte[]> record) {
        if (topic == null || !topic.equals(record.topic())) {
            return record;
        }
        if (record.value() == null || !contains(record.value(), needle) || !fired.compareAndSet(false, true)) {
            sent.incrementAndGet();
            return record;
        }
        if ("halt".equals(action)) {
            long before = sent.get();
            long deadline = System.nanoTime() + ACK_WAIT.toNanos();
            while (acknowledged.get() < before && System.nanoTime() - deadline < 0) {
                Thread.onSpinWait();
            }
            Runtime.getRuntime().halt(137);
        }
        sent.incrementAndGet();
        if ("misroute".equals(action)) {
            return new ProducerRecord<>(record.topic(), MISSING_PARTITION, record.key(), record.value(),
                record.headers());
        }
        return new ProducerRecord<>(record.topic(), record.partition(), record.key(), new byte[OVERSIZED_BYTES],
            record.headers());
    }

    @Override
    public void onAcknowledgement(RecordMetadata metadata, Exception exception) {
        if (metadata != null && metadata.topic().equals(topic)) {
            acknowledged.incrementAndGet();
        }
    }

    @Override
    public ConsumerRecords<byte[], byte[]> onConsume(ConsumerRecords<byte[], byte[]> records) {
        return records;
    }

    @Override
    public void onCommit(Map<TopicPartition, OffsetAndMetadata> offsets) {
    }

    @Override
    public void close() {
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        if (needle == null) {
            return false;
        }
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
