package io.tributary.bench.writer;

import io.tributary.topics.codec.TopicCodec;
import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.RowsMessage;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Stands in for ingest and the stream workers while W replays a finished run's {@code rows}: a barrier to every
 * partition every second, numbered on from the newest barrier at the topic's end, as a running pipeline forwards
 * them. Without it a replaying group waits for its first checkpoint forever (it needs a barrier after where the log
 * ended when its writers started). Runs on its own thread in the bench JVM until {@link #close()}.
 */
final class BarrierTicker implements AutoCloseable {

    private final KafkaProducer<byte[], byte[]> producer;
    private final ScheduledExecutorService timer;

    private BarrierTicker(KafkaProducer<byte[], byte[]> producer, ScheduledExecutorService timer) {
        this.producer = producer;
        this.timer = timer;
    }

    /** Starts ticking into {@code topic}. */
    static BarrierTicker start(Properties kafka, String topic) {
        Barrier newest = newestBarrier(kafka, topic);
        Properties properties = new Properties();
        properties.putAll(kafka);
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(properties, new ByteArraySerializer(),
            new ByteArraySerializer());
        int partitions = producer.partitionsFor(topic).size();
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "bench-barrier-ticker");
            thread.setDaemon(true);
            return thread;
        });
        long[] next = {newest.epoch() + 1, newest.lsn().value() + 1};
        timer.scheduleAtFixedRate(() -> {
            Barrier barrier = Barrier.of(next[0]++, Lsn.of(next[1]++));
            for (ProducerRecord<byte[], byte[]> record : TopicCodec.ROWS.recordsToEveryPartition(topic, partitions,
                barrier)) {
                producer.send(record);
            }
            producer.flush();
        }, 0, 1, TimeUnit.SECONDS);
        return new BarrierTicker(producer, timer);
    }

    /** The barrier with the highest epoch among the last records of each partition. */
    private static Barrier newestBarrier(Properties kafka, String topic) {
        Properties properties = new Properties();
        properties.putAll(kafka);
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        Barrier newest = Barrier.of(0, Lsn.ZERO);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            Map<TopicPartition, Long> end = new HashMap<>(consumer.endOffsets(partitions));
            for (TopicPartition partition : partitions) {
                consumer.seek(partition, Math.max(0, end.get(partition) - 2_000));
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))
                && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    RowsMessage message = TopicCodec.ROWS.decode(record);
                    if (message instanceof Barrier barrier && barrier.epoch() > newest.epoch()) {
                        newest = barrier;
                    }
                }
            }
        }
        return newest;
    }

    @Override
    public void close() throws InterruptedException {
        timer.shutdownNow();
        timer.awaitTermination(10, TimeUnit.SECONDS);
        producer.close(Duration.ofSeconds(5));
    }
}
