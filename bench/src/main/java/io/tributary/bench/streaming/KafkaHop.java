package io.tributary.bench.streaming;

import io.tributary.bench.pipeline.BenchContext;
import io.tributary.bench.pipeline.ResultTable.Row;
import io.tributary.bench.probe.CpuUse;
import io.tributary.bench.probe.StageCpu;
import io.tributary.topics.codec.TopicCodec;
import io.tributary.topics.messages.ChangeEventBatch;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
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
 * Scenario S4, the floor of one exactly-once Kafka hop of a change on the bench's broker: the committed records of
 * {@code changes} after S1 and S2 (keys and values byte for byte, each to the partition it was in) are sent again
 * by one transactional producer with ingest's settings ({@code acks=all}, idempotent, {@code linger.ms} 5, 256 KiB
 * batches; lz4, and once without compression) in transactions of {@value #TRANSACTION_RECORDS} records (a 200 ms
 * barrier interval at 25k changes/s) into a fresh topic with as many partitions, and read back by one
 * {@code read_committed} consumer. Timed from the first send to the last record read; the CPU is the bench JVM's
 * (broker and both clients) over that window. Nothing is encoded or decoded: this is what moving a change through
 * Kafka exactly once costs by itself, and S1 makes two such hops per change ({@code changes} and {@code rows})
 * besides the merge's changelog.
 */
final class KafkaHop {

    static final String S4 = "S4 one exactly-once Kafka hop (floor)";
    private static final int TRANSACTION_RECORDS = 5_000;

    private KafkaHop() {
    }

    /**
     * Runs S4 over the committed records of {@code changesTopic} and adds its rows: one with ingest's lz4, one
     * without compression.
     */
    static void run(BenchContext ctx, String changesTopic) {
        for (String compression : List.of("lz4", "none")) {
            String configuration = String.format(Locale.ROOT, "the records of %s re-sent in transactions of %,d"
                + " (compression %s), read back read_committed", changesTopic, TRANSACTION_RECORDS, compression);
            ctx.record(S4, configuration, attempt -> measure(ctx, changesTopic, compression, configuration));
        }
    }

    private static Row measure(BenchContext ctx, String changesTopic, String compression, String configuration)
        throws Exception {
        List<ConsumerRecord<byte[], byte[]>> records = readAll(ctx.kafka(), changesTopic);
        long changes = messagesIn(records);
        int partitions = (int) records.stream().mapToInt(ConsumerRecord::partition).max().orElse(0) + 1;
        String hop = "bench_hop_" + UUID.randomUUID();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, ctx.kafka()))) {
            admin.createTopics(List.of(new NewTopic(hop, partitions, (short) 1))).all().get(60, TimeUnit.SECONDS);
        }
        ExecutorService reader = Executors.newSingleThreadExecutor(r -> new Thread(r, "bench-hop-consumer"));
        try {
            StageCpu stages = StageCpu.start();
            CpuUse before = ctx.cpu().total();
            long start = System.nanoTime();
            Future<Long> read = reader.submit(() -> readCount(ctx.kafka(), hop, records.size(), ctx.timeout()));
            try (KafkaProducer<byte[], byte[]> producer = producer(ctx.kafka(), compression)) {
                producer.initTransactions();
                for (int i = 0; i < records.size(); i += TRANSACTION_RECORDS) {
                    producer.beginTransaction();
                    for (ConsumerRecord<byte[], byte[]> r : records.subList(i,
                        Math.min(records.size(), i + TRANSACTION_RECORDS))) {
                        producer.send(new ProducerRecord<>(hop, r.partition(), r.key(), r.value()));
                    }
                    producer.commitTransaction();
                }
            }
            long got = read.get(ctx.timeout().toSeconds(), TimeUnit.SECONDS);
            double seconds = (System.nanoTime() - start) / 1e9;
            CpuUse used = ctx.cpu().total().since(before);
            if (got < records.size()) {
                return Row.failed(S4, configuration, changes, seconds, "TIMEOUT: " + got + " records read");
            }
            return Row.ok(S4, configuration, changes, seconds, String.format(Locale.ROOT,
                "%,d records of %s holding %,d messages (%,d bytes of keys and values on average a record); %s (the"
                    + " producer's network thread counts with the broker's)", records.size(), changesTopic, changes,
                averageBytes(records), StageCpu.note(stages.since(), used.jvmSeconds(), used.jitSeconds(), changes)))
                .withCpu(used);
        } finally {
            reader.shutdownNow();
        }
    }

    /** The messages {@code records} carry: a change event batch counts its events, any other record one. */
    private static long messagesIn(List<ConsumerRecord<byte[], byte[]>> records) {
        long messages = 0;
        for (ConsumerRecord<byte[], byte[]> r : records) {
            messages += TopicCodec.CHANGES.decode(r) instanceof ChangeEventBatch batch ? batch.events().size() : 1;
        }
        return messages;
    }

    private static long averageBytes(List<ConsumerRecord<byte[], byte[]>> records) {
        long bytes = 0;
        for (ConsumerRecord<byte[], byte[]> r : records) {
            bytes += (r.key() == null ? 0 : r.key().length) + (r.value() == null ? 0 : r.value().length);
        }
        return records.isEmpty() ? 0 : bytes / records.size();
    }

    private static KafkaProducer<byte[], byte[]> producer(String kafka, String compression) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka);
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "bench-hop-producer");
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "bench-hop-" + UUID.randomUUID());
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(256 * 1024));
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, compression);
        props.put(ProducerConfig.BUFFER_MEMORY_CONFIG, Long.toString(128L * 1024 * 1024));
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static KafkaConsumer<byte[], byte[]> consumer(String kafka) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** Every committed record of {@code topic}, read from the beginning to the end offsets at the start. */
    private static List<ConsumerRecord<byte[], byte[]>> readAll(String kafka, String topic) {
        List<ConsumerRecord<byte[], byte[]>> all = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(kafka)) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                consumer.poll(Duration.ofMillis(200)).forEach(all::add);
            }
        }
        return all;
    }

    private static long readCount(String kafka, String topic, long expected, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long count = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(kafka)) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            while (count < expected && System.nanoTime() < deadline) {
                count += consumer.poll(Duration.ofMillis(100)).count();
            }
        }
        return count;
    }
}
