package io.tributary.bench.debezium;

import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.tributary.bench.pipeline.ResultTable.Row;
import io.tributary.postgres.PgEndpoint;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Baseline: Debezium's own initial snapshot ({@code snapshot.mode=initial}, {@code snapshot.max.threads}) of the
 * same tables into Kafka, the way Kafka Connect would write it: every snapshot record converted by Connect's
 * {@code JsonConverter} (without schemas, the lighter setting) and produced with Connect's producer settings
 * ({@code acks=all}, one request in flight) to one single-partition topic. Timed from the engine's start (slot
 * creation and snapshot export included) to the Kafka acknowledgement of the last snapshot record.
 */
public final class DebeziumSnapshot {

    /** What to snapshot: the tables ({@code table.include.list}) and how many rows they hold. */
    public record Target(PgEndpoint source, String includeList, long rows) {
    }

    private DebeziumSnapshot() {
    }

    /** One timed snapshot named {@code name} (slot, publication, topic) with {@code threads} snapshot threads. */
    public static Row run(String scenario, String configuration, String name, Target target, int threads,
                          String kafka, Duration timeout) throws Exception {
        createTopic(kafka, name);
        Properties props = EngineRun.properties(name, target.source());
        props.setProperty("snapshot.mode", "initial");
        props.setProperty("snapshot.max.threads", Integer.toString(threads));
        props.setProperty("table.include.list", target.includeList());
        props.setProperty("publication.autocreate.mode", "filtered");
        CountDownLatch done = new CountDownLatch(1);
        AtomicLong acked = new AtomicLong();
        AtomicLong lastAck = new AtomicLong();
        AtomicReference<Exception> sendError = new AtomicReference<>();
        JsonConverter keys = converter(true);
        JsonConverter values = converter(false);
        long start = System.nanoTime();
        Optional<String> problem;
        try (KafkaProducer<byte[], byte[]> producer = producer(kafka)) {
            DebeziumEngine.ChangeConsumer<RecordChangeEvent<SourceRecord>> handler = (records, committer) -> {
                for (RecordChangeEvent<SourceRecord> event : records) {
                    SourceRecord record = event.record();
                    if (EngineRun.op(record).filter("r"::equals).isPresent()) {
                        byte[] key = keys.fromConnectData(record.topic(), record.keySchema(), record.key());
                        byte[] value = values.fromConnectData(record.topic(), record.valueSchema(), record.value());
                        producer.send(new ProducerRecord<>(name, key, value), (metadata, e) -> {
                            if (e != null) {
                                sendError.compareAndSet(null, e);
                                done.countDown();
                            } else if (acked.incrementAndGet() == target.rows()) {
                                lastAck.set(System.nanoTime());
                                done.countDown();
                            }
                        });
                    }
                    committer.markProcessed(event);
                }
                committer.markBatchFinished();
            };
            try (EngineRun run = EngineRun.start(props, handler, done)) {
                problem = run.finished(timeout);
            }
        } finally {
            EngineRun.dropSlotAndPublication(target.source(), name);
        }
        if (sendError.get() != null) {
            return Row.failed(scenario, configuration, target.rows(), 0, "FAILED: " + sendError.get());
        }
        if (problem.isPresent()) {
            return Row.failed(scenario, configuration, target.rows(), (System.nanoTime() - start) / 1e9,
                problem.get() + " (" + acked.get() + " records acked)");
        }
        return Row.ok(scenario, configuration, target.rows(), (lastAck.get() - start) / 1e9, String.format(
            Locale.ROOT, "to the last snapshot record acked by Kafka (start-up and slot creation included)"));
    }

    private static JsonConverter converter(boolean isKey) {
        JsonConverter converter = new JsonConverter();
        converter.configure(Map.of("schemas.enable", "false"), isKey);
        return converter;
    }

    private static KafkaProducer<byte[], byte[]> producer(String kafka) {
        Properties props = new Properties();
        props.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka);
        props.setProperty(ProducerConfig.ACKS_CONFIG, "all");
        props.setProperty(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1");
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static void createTopic(String kafka, String name) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka))) {
            admin.createTopics(List.of(new NewTopic(name, 1, (short) 1))).all().get();
        }
    }
}
