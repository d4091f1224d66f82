package io.tributary.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.syncrules.ExpectedBuckets;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.testing.random.Seeds;
import io.tributary.topics.codec.DeadLetters;
import io.tributary.topics.codec.RecordPosition;
import io.tributary.topics.messages.Barrier;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Random;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;

@RealServices
class StorageWriterIT {

    static final String RULES = """
        bucket_definitions:
          global:
            data:
              - SELECT id, title FROM lists
          by_user:
            parameters: SELECT request.user_id() AS user_id
            data:
              - SELECT id, title, v FROM todos WHERE owner = bucket.user_id
          done:
            data:
              - SELECT id, v FROM todos WHERE done = true
        """;

    @Test
    void bucketChecksumsEqualTheReferenceEvaluatorOverTheFinalRows(TestServices services) throws Exception {
        long seed = Seeds.fromProperty("tributary.seed");
        Random random = new Random(seed);
        try (WriterHarness h = WriterHarness.create(services, 4, RULES);
             StorageWriter writer = h.start(100, 2)) {
            int version = 0;
            for (int i = 0; i < 3_000; i++) {
                int kind = random.nextInt(10);
                if (kind < 6) {
                    String id = "t" + random.nextInt(200);
                    h.log.upsert("todos", id, "{\"id\":\"" + id + "\",\"title\":\"todo " + id + "\",\"owner\":\"u"
                        + random.nextInt(10) + "\",\"done\":" + random.nextBoolean() + ",\"v\":" + version++ + "}");
                } else if (kind < 8) {
                    String id = "l" + random.nextInt(50);
                    h.log.upsert("lists", id, "{\"id\":\"" + id + "\",\"title\":\"list " + version++ + "\"}");
                } else {
                    String table = random.nextBoolean() ? "todos" : "lists";
                    List<String> ids = new ArrayList<>(h.log.rows(table).keySet());
                    if (!ids.isEmpty()) {
                        h.log.delete(table, ids.get(random.nextInt(ids.size())));
                    }
                }
                if (i % 100 == 99) {
                    h.log.barrier();
                }
            }
            Barrier last = h.log.barrier();
            h.awaitCaughtUp(Duration.ofSeconds(60), List.of(writer));

            List<StorageView.Op> ops = h.storage.ops();
            ExpectedBuckets expected = h.log.expected(RULES);
            assertThat(expected.errors()).isEmpty();
            assertThat(StorageView.reduce(ops)).as("seed %d", seed).isEqualTo(expected.buckets());
            assertThat(StorageView.exactlyOnceViolations(ops)).as("seed %d", seed).isEmpty();
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                assertThat(h.storage.checkpoint()).hasValueSatisfying(checkpoint -> {
                    assertThat(checkpoint.epoch()).isEqualTo(last.epoch());
                    assertThat(checkpoint.lsn()).isEqualTo(last.lsn().toString());
                    assertThat(checkpoint.opId()).isEqualTo(ops.get(ops.size() - 1).opId());
                });
            });
        }
    }

    @Test
    void aBucketMovingUpdateEmitsRemoveThenPut(TestServices services) throws Exception {
        try (WriterHarness h = WriterHarness.create(services, 2, RULES);
             StorageWriter writer = h.start(100, 1)) {
            h.log.upsert("todos", "t1", "{\"id\":\"t1\",\"title\":\"a\",\"owner\":\"u1\",\"done\":false,\"v\":1}");
            h.log.barrier();
            h.awaitCaughtUp(Duration.ofSeconds(30), List.of(writer));
            h.log.upsert("todos", "t1", "{\"id\":\"t1\",\"title\":\"a\",\"owner\":\"u2\",\"done\":false,\"v\":2}");
            h.log.barrier();
            h.awaitCaughtUp(Duration.ofSeconds(30), List.of(writer));

            assertThat(h.storage.ops()).extracting(op -> op.op() + " " + op.bucket() + " " + op.rowId())
                .containsExactly("1 by_user[\"u1\"] t1", "2 by_user[\"u1\"] t1", "1 by_user[\"u2\"] t1");
        }
    }

    @Test
    void aPoisonRecordIsDeadLetteredAndProcessingContinues(TestServices services) throws Exception {
        try (WriterHarness h = WriterHarness.create(services, 1, RULES);
             StorageWriter writer = h.start(100, 1)) {
            h.log.upsert("lists", "l1", "{\"id\":\"l1\",\"title\":\"before\"}");
            h.log.raw(0, "not a key".getBytes(StandardCharsets.UTF_8), "{not json".getBytes(StandardCharsets.UTF_8));
            h.log.upsert("lists", "l2", "{\"id\":\"l2\",\"title\":\"after\"}");
            h.log.barrier();
            h.awaitCaughtUp(Duration.ofSeconds(30), List.of(writer));

            assertThat(StorageView.reduce(h.storage.ops())).isEqualTo(h.log.expected(RULES).buckets());
            assertThat(writer.stats().deadLettered()).isEqualTo(1);
            ConsumerRecord<byte[], byte[]> dead = readOne(h.services.kafkaProperties(), h.names.deadLetters());
            assertThat(DeadLetters.originOf(dead)).contains(RecordPosition.of(h.names.rows(), 0, 1));
            assertThat(DeadLetters.header(dead.headers(), DeadLetters.STAGE)).contains("storage-writer");
            assertThat(DeadLetters.header(dead.headers(), "tributary.dlt.group"))
                .contains(Long.toString(h.groupId));
            assertThat(DeadLetters.header(dead.headers(), DeadLetters.ERROR_MESSAGE)).isPresent();
        }
    }

    /**
     * Scaling out moves partitions, not the whole group: a writer that joins takes its share of the partitions, and
     * the writer already there keeps the others without a pause (it never gives them up, so their fencing tokens
     * stay at its first claim). With an eager assignor every partition was revoked and claimed again.
     */
    @Test
    void aJoiningWriterTakesItsShareWhileTheOtherKeepsTheRest(TestServices services) throws Exception {
        try (WriterHarness h = WriterHarness.create(services, 4, RULES);
             StorageWriter first = h.start(100, 1)) {
            for (int i = 0; i < 40; i++) {
                h.log.upsert("lists", "l" + i, "{\"id\":\"l" + i + "\",\"title\":\"before\"}");
            }
            h.log.barrier();
            h.awaitCaughtUp(Duration.ofSeconds(30), List.of(first));
            assertThat(h.storage.fencingTokens()).containsOnlyKeys(0, 1, 2, 3).allSatisfy((p, t) -> assertThat(t)
                .isEqualTo(1));

            try (StorageWriter second = h.start(100, 1)) {
                await().atMost(Duration.ofSeconds(30)).until(() -> h.storage.fencingTokens().containsValue(2L));
                for (int i = 0; i < 40; i++) {
                    h.log.upsert("lists", "l" + i, "{\"id\":\"l" + i + "\",\"title\":\"after\"}");
                }
                h.log.barrier();
                h.awaitCaughtUp(Duration.ofSeconds(30), List.of(first, second));

                assertThat(StorageView.reduce(h.storage.ops())).isEqualTo(h.log.expected(RULES).buckets());
                assertThat(h.storage.fencingTokens().values()).containsExactlyInAnyOrder(1L, 1L, 2L, 2L);
            }
        }
    }

    /**
     * A poison record evaluated while an earlier batch of its partition is being committed waits in the committer's
     * queue; a rebalance then drops that queue (the range assignor revokes every partition) and the partition's next
     * owner evaluates the record again. Its dead letter must still be sent once.
     */
    @Test
    void aPoisonRecordQueuedWhenItsPartitionMovesIsDeadLetteredOnce(TestServices services) throws Exception {
        try (WriterHarness h = WriterHarness.create(services, 1, RULES);
             StorageWriter first = h.startEager(1, 1)) {
            h.log.upsert("lists", "l0", "{\"id\":\"l0\",\"title\":\"first\"}");
            h.log.barrier();
            h.awaitCaughtUp(Duration.ofSeconds(30), List.of(first));
            long poisonOffset = h.endOffsets().get(0) + 1;
            StorageWriter second;
            try (Connection lock = h.db.connect()) {
                lock.setAutoCommit(false);
                try (Statement s = lock.createStatement()) {
                    s.execute("SELECT 1 FROM tributary.partition_offsets WHERE group_id = " + h.groupId
                        + " FOR UPDATE");
                }
                h.log.upsert("lists", "l1", "{\"id\":\"l1\",\"title\":\"in flight\"}");
                h.log.raw(0, "not a key".getBytes(StandardCharsets.UTF_8),
                    "{not json".getBytes(StandardCharsets.UTF_8));
                h.log.upsert("lists", "l2", "{\"id\":\"l2\",\"title\":\"after\"}");
                h.log.barrier();
                h.log.flush();
                // One poll brings all four; l1's batch blocks on the lock, the poison's waits behind it.
                await().atMost(Duration.ofSeconds(20)).until(() -> waitingForLocks(h) > 0);
                second = h.startEager(1, 1);
                // Stable again: the first writer gave up its partition (its in-flight commit still blocked).
                h.awaitStableGroup(2, Duration.ofSeconds(60));
                lock.commit();
            }
            try (second) {
                h.awaitCaughtUp(Duration.ofSeconds(30), List.of(first, second));

                assertThat(StorageView.reduce(h.storage.ops())).isEqualTo(h.log.expected(RULES).buckets());
                assertThat(readAll(h.services.kafkaProperties(), h.names.deadLetters()))
                    .map(DeadLetters::originOf)
                    .containsExactly(Optional.of(RecordPosition.of(h.names.rows(), 0, poisonOffset)));
            }
        }
    }

    private static long waitingForLocks(WriterHarness h) throws SQLException {
        try (Connection c = h.db.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                 + " AND datname = current_database()")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void checkpointsAdvanceOnAnIdleSourceFromBarriersAlone(TestServices services) throws Exception {
        try (WriterHarness h = WriterHarness.create(services, 3, RULES);
             StorageWriter writer = h.start(100, 1)) {
            h.log.upsert("lists", "l1", "{\"id\":\"l1\",\"title\":\"x\"}");
            h.log.barrier();
            h.log.flush();
            await().atMost(Duration.ofSeconds(20)).until(() -> h.storage.checkpoint().isPresent());
            long opId = h.storage.checkpoint().orElseThrow().opId();
            for (int i = 0; i < 3; i++) {
                Barrier barrier = h.log.barrier();
                h.log.flush();
                await().atMost(Duration.ofSeconds(10))
                    .until(() -> h.storage.checkpoint().orElseThrow().epoch() == barrier.epoch());
            }
            assertThat(h.storage.checkpoint().orElseThrow().opId()).isEqualTo(opId);
            assertThat(writer.failure()).isEmpty();
        }
    }

    @Test
    void aWriterStopsWhenItsGroupIsStopped(TestServices services) throws Exception {
        try (WriterHarness h = WriterHarness.create(services, 1, RULES);
             StorageWriter writer = h.start(100, 1)) {
            try (Connection c = h.db.connect()) {
                assertThat(SyncRulesGroups.transition(c, h.groupId, GroupState.PROCESSING, GroupState.STOP)).isTrue();
            }

            await().atMost(Duration.ofSeconds(20)).until(() -> !writer.isRunning());
            assertThat(writer.failure()).isEmpty();
        }
    }

    private static List<ConsumerRecord<byte[], byte[]>> readAll(Properties kafka, String topic) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(kafka, new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                consumer.poll(Duration.ofMillis(100)).forEach(records::add);
                return partitions.stream().allMatch(p -> consumer.position(p) >= ends.get(p));
            });
            return records;
        }
    }

    private static ConsumerRecord<byte[], byte[]> readOne(Properties kafka, String topic) {
        Properties properties = new Properties();
        properties.putAll(kafka);
        properties.put("group.id", "dlt-reader-" + System.nanoTime());
        properties.put("auto.offset.reset", "earliest");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                consumer.poll(Duration.ofMillis(100)).forEach(records::add);
                return !records.isEmpty();
            });
            assertThat(records).hasSize(1);
            return records.get(0);
        }
    }
}
