package io.tributary.ingest.capture.barrier;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
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
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * What a restarted ingest recovers from {@code changes} when the previous run committed a transaction after its
 * last barrier: the next barrier, even one written before any new transaction ends, covers that transaction.
 */
@RealServices
class BarrierRecoveryIT {

    private static final int PARTITIONS = 3;
    private static final TableId TABLE = TableId.of("public", "kv");

    @Test
    void theNextBarrierCoversATransactionCommittedAfterTheNewestBarrier(TestServices services) throws Exception {
        TopicNames topics = TopicNames.withPrefix(services.topicPrefix());
        try (Admin admin = Admin.create(services.kafkaProperties())) {
            TopicProvisioner.ensure(admin, topics, TopicLayout.of(PARTITIONS, 1, (short) 1));
        }
        Lsn barrierLsn = Lsn.of(0x1000);
        Lsn laterCommit = Lsn.of(0x2000);
        Properties props = new Properties();
        props.putAll(services.kafkaProperties());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<byte[], byte[]> producer =
                 new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int p = 0; p < PARTITIONS; p++) {
                send(producer, topics.changes(), p, ChangeEvent.insert(TABLE, KeyValues.of("[" + p + "]"),
                    RowJson.of("{\"id\":" + p + "}"), Lsn.of(0x0800), 0, 700));
                send(producer, topics.changes(), p, Barrier.of(7, barrierLsn));
            }
            send(producer, topics.changes(), 1, ChangeEvent.insert(TABLE, KeyValues.of("[9]"),
                RowJson.of("{\"id\":9}"), laterCommit, 0, 701));
            producer.flush();
        }

        Map<String, String> kafka = new HashMap<>();
        services.kafkaProperties().forEach((k, v) -> kafka.put((String) k, (String) v));
        RecoveredBarriers recovered = BarrierRecovery.recover(kafka, topics.changes(), PARTITIONS,
            Duration.ofSeconds(60));
        Optional<Barrier> next = BarrierSchedule.after(recovered, Duration.ofHours(1)).next(Optional.empty(), 0L);

        assertThat(recovered.latest()).contains(Barrier.of(7, barrierLsn));
        assertThat(next).as("the first barrier after the restart, due before any new transaction ended")
            .hasValueSatisfying(barrier -> {
                assertThat(barrier.epoch()).isEqualTo(8);
                assertThat(barrier.lsn()).as("its LSN, after a change committed at %s", laterCommit)
                    .isGreaterThanOrEqualTo(laterCommit);
            });
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, String topic, int partition,
                             ChangesMessage message) throws Exception {
        producer.send(TopicCodec.CHANGES.record(topic, partition, message)).get();
    }
}
