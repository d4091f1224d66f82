package io.tributary.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.syncrules.SyncRules;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.messages.Barrier;
import io.tributary.writer.checkpoint.Checkpointer;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;

/**
 * A group replaying a {@code rows} log that compaction has thinned: the cleaner keeps only the newest barrier of the
 * range it cleaned and removes older versions of keys rewritten after it, so that barrier stands for a state that
 * never existed. The group's first checkpoint waits for a barrier at or after where the log ended when its writers
 * started.
 */
@RealServices
class ReplayAfterCompactionIT {

    private static final String A1 = "{\"id\":\"a\",\"title\":\"a\",\"owner\":\"u1\",\"done\":false,\"v\":1}";
    private static final String A2 = "{\"id\":\"a\",\"title\":\"a\",\"owner\":\"u2\",\"done\":false,\"v\":2}";
    private static final String C = "{\"id\":\"c\",\"title\":\"c\",\"owner\":\"u1\",\"done\":false,\"v\":1}";

    @Test
    void theFirstCheckpointOfAReplayIsNotABarrierThatCompactionLeftBehind(TestServices services) throws Exception {
        String rules = StorageWriterIT.RULES;
        try (WriterHarness h = WriterHarness.create(services, 1, rules)) {
            compactQuickly(h);
            h.log.upsert("todos", "a", A1);
            Barrier early = h.log.barrier();
            h.log.upsert("todos", "a", A2);
            h.log.upsert("todos", "c", C);
            h.log.flush();
            awaitCleaned(h);

            try (StorageWriter writer = h.start(100, 1); Connection c = h.db.connect()) {
                h.awaitCaughtUp(Duration.ofSeconds(30), List.of(writer));
                assertThat(h.storage.newestSeals()).isEqualTo(Map.of(0, early.epoch()));
                c.setAutoCommit(false);
                assertThat(new Checkpointer(h.groupId, 1, SyncRules.parse(rules)).advance(c))
                    .as("a checkpoint at barrier %d, which the cleaner left before a newer version of row a",
                        early.epoch())
                    .isEmpty();
                assertThat(h.storage.checkpoint()).isEmpty();

                Barrier later = h.log.barrier();
                h.log.flush();
                await().atMost(Duration.ofSeconds(20)).until(() -> h.storage.checkpoint().isPresent());
                assertThat(h.storage.checkpoint().orElseThrow().epoch()).isEqualTo(later.epoch());
                assertThat(StorageView.reduce(h.storage.ops())).isEqualTo(h.log.expected(rules).buckets());
                assertThat(writer.failure()).isEmpty();
            }
        }
    }

    /** Makes the cleaner compact {@code rows} as soon as a segment rolls, and segments roll within 100 ms. */
    private static void compactQuickly(WriterHarness h) throws Exception {
        try (Admin admin = Admin.create(h.services.kafkaProperties())) {
            ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, h.names.rows());
            Collection<AlterConfigOp> ops = List.of(
                new AlterConfigOp(new ConfigEntry("segment.ms", "100"), AlterConfigOp.OpType.SET),
                new AlterConfigOp(new ConfigEntry("min.cleanable.dirty.ratio", "0.001"), AlterConfigOp.OpType.SET),
                new AlterConfigOp(new ConfigEntry("min.compaction.lag.ms", "0"), AlterConfigOp.OpType.SET));
            admin.incrementalAlterConfigs(Map.of(topic, ops)).all().get();
        }
    }

    /**
     * Waits until the cleaner removed row a's first version: each attempt appends a filler row (always the same key,
     * so the fillers compact too), which rolls the segment once it is older than {@code segment.ms}.
     */
    private static void awaitCleaned(WriterHarness h) {
        int[] filler = {0};
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300)).until(() -> {
            h.log.upsert("lists", "filler", "{\"id\":\"filler\",\"title\":\"" + filler[0]++ + "\"}");
            h.log.flush();
            return !offsets(h).contains(0L);
        });
    }

    private static List<Long> offsets(WriterHarness h) {
        Properties properties = h.services.kafkaProperties();
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        List<Long> offsets = new ArrayList<>();
        TopicPartition partition = new TopicPartition(h.names.rows(), 0);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            while (consumer.position(partition) < end) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    offsets.add(record.offset());
                }
            }
        }
        return offsets;
    }
}
