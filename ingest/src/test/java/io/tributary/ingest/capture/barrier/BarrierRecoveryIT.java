package io.tributary.ingest.capture.barrier;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.testing.kafka.TopicRetention;
import io.tributary.topics.TopicLayout;
import io.tributary.topics.TopicNames;
import io.tributary.topics.codec.TopicCodec;
import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.ChangesMessage;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.provision.TopicProvisioner;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * What a restarted ingest recovers from {@code changes} when the previous run committed a transaction after its
 * last barrier: the next barrier, even one written before any new transaction ends, covers that transaction, also
 * once retention removed it from {@code changes}.
 */
@RealServices
class BarrierRecoveryIT {

    private static final int PARTITIONS = 3;
    private static final TableId TABLE = TableId.of("public", "kv");

    @Test
    void theNextBarrierCoversATransactionCommittedAfterTheNewestBarrier(TestServices services) throws Exception {
        TopicNames topics = provision(services);
        Lsn barrierLsn = Lsn.of(0x1000);
        Lsn laterCommit = Lsn.of(0x2000);
        try (KafkaProducer<byte[], byte[]> producer = producer(services)) {
            for (int p = 0; p < PARTITIONS; p++) {
                send(producer, topics.changes(), p, ChangeEvent.insert(TABLE, KeyValues.of("[" + p + "]"),
                    RowJson.of("{\"id\":" + p + "}"), Lsn.of(0x0800), 0, 700));
                send(producer, topics.changes(), p, Barrier.of(7, barrierLsn));
            }
            send(producer, topics.changes(), 1, ChangeEvent.insert(TABLE, KeyValues.of("[9]"),
                RowJson.of("{\"id\":9}"), laterCommit, 0, 701));
            producer.flush();
        }

        assertTheNextBarrierCovers(BarrierRecovery.recover(kafka(services), topics.changes(), PARTITIONS,
            Duration.ofSeconds(60)), Barrier.of(7, barrierLsn), laterCommit);
    }

    /**
     * The same after retention removed every record of {@code changes} (the stored barrier is all that is left of
     * the barriers): the engine's stored offsets, which resume after the later transaction, still say how far the
     * previous run committed.
     */
    @Test
    void theNextBarrierCoversATransactionCommittedAfterTheNewestBarrierThoughRetentionRemovedIt(
        TestServices services) throws Exception {
        TopicNames topics = provision(services);
        Lsn barrierLsn = Lsn.of(0x1000);
        Lsn laterCommit = Lsn.of(0x2000);
        StoredBarrier stored = new StoredBarrier(topics.ingestOffsets(), "tributary-test");
        try (KafkaProducer<byte[], byte[]> producer = producer(services)) {
            for (int p = 0; p < PARTITIONS; p++) {
                send(producer, topics.changes(), p, Barrier.of(7, barrierLsn));
            }
            send(producer, topics.changes(), 1, ChangeEvent.insert(TABLE, KeyValues.of("[9]"),
                RowJson.of("{\"id\":9}"), laterCommit, 0, 701));
            producer.send(stored.record(Barrier.of(7, barrierLsn))).get();
            producer.send(new ProducerRecord<>(topics.ingestOffsets(), 0,
                "[\"tributary-test\",{\"server\":\"source\"}]".getBytes(StandardCharsets.UTF_8),
                ("{\"lsn\":" + laterCommit.value() + ",\"lsn_commit\":" + laterCommit.value() + ",\"txId\":701}")
                    .getBytes(StandardCharsets.UTF_8))).get();
        }
        try (Admin admin = Admin.create(services.kafkaProperties())) {
            TopicRetention.removeEveryRecord(admin, topics.changes());
        }

        assertTheNextBarrierCovers(BarrierRecovery.recover(kafka(services), topics.changes(), PARTITIONS, stored,
            Duration.ofSeconds(60)), Barrier.of(7, barrierLsn), laterCommit);
    }

    /** {@code recovered} continues from {@code newest}; the next barrier, due at once, covers {@code lsn}. */
    private static void assertTheNextBarrierCovers(RecoveredBarriers recovered, Barrier newest, Lsn lsn) {
        Optional<Barrier> next = BarrierSchedule.after(recovered, Duration.ofHours(1)).next(Optional.empty(), 0L);

        assertThat(recovered.latest()).contains(newest);
        assertThat(next).as("the first barrier after the restart, due before any new transaction ended")
            .hasValueSatisfying(barrier -> {
                assertThat(barrier.epoch()).isEqualTo(newest.epoch() + 1);
                assertThat(barrier.lsn()).as("its LSN, after a change committed at %s", lsn)
                    .isGreaterThanOrEqualTo(lsn);
            });
    }

    private static TopicNames provision(TestServices services) {
        TopicNames topics = TopicNames.withPrefix(services.topicPrefix());
        try (Admin admin = Admin.create(services.kafkaProperties())) {
            TopicProvisioner.ensure(admin, topics, TopicLayout.of(PARTITIONS, 1, (short) 1));
        }
        return topics;
    }

    private static KafkaProducer<byte[], byte[]> producer(TestServices services) {
        Properties props = new Properties();
        props.putAll(services.kafkaProperties());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static Map<String, String> kafka(TestServices services) {
        Map<String, String> kafka = new HashMap<>();
        services.kafkaProperties().forEach((k, v) -> kafka.put((String) k, (String) v));
        return kafka;
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, String topic, int partition,
                             ChangesMessage message) throws Exception {
        producer.send(TopicCodec.CHANGES.record(topic, partition, message)).get();
    }
}
