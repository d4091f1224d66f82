package io.tributary.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.TopicLayout;
import io.tributary.topics.provision.TopicProvisioner;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;

/**
 * A group's stored offsets that no longer describe the {@code rows} log Kafka holds: the topic deleted and created
 * again (as on a new cluster or a broker that lost its data), an offset past the log's end, records left unread
 * longer than the topic keeps tombstones. A writer start says so within seconds, naming the topic and both ids or
 * offsets, instead of waiting at offsets that do not exist.
 */
@RealServices
class TableLogLostIT {

    private static final Duration DETECTION = Duration.ofSeconds(10);

    @Test
    void aRecreatedRowsTopicStopsTheWriterNamingBothTopicIds(TestServices services) throws Exception {
        try (WriterHarness h = WriterHarness.create(services, 2, StorageWriterIT.RULES)) {
            writeAndApply(h);
            String before = topicId(h);
            try (Admin admin = Admin.create(services.kafkaProperties())) {
                admin.deleteTopics(List.of(h.names.rows())).all().get();
                await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
                    TopicProvisioner.ensure(admin, h.names, TopicLayout.of(h.partitions, 1, (short) 1));
                    return !topicId(h).equals(before);
                });
            }
            String after = topicId(h);
            h.log.upsert("todos", "b", "{\"id\":\"b\",\"title\":\"b\",\"owner\":\"u1\",\"done\":false}");
            h.log.barrier();
            h.log.flush();

            TableLogLostException lost = failureOfAStart(h);
            assertThat(lost.loss()).isEqualTo(TableLogLostException.Loss.LOG);
            assertThat(lost.getMessage()).contains(h.names.rows(), before, after, "tributary recover");
        }
    }

    @Test
    void aRowsTopicRecreatedWhileTheWriterRunsStopsItWithinSeconds(TestServices services) throws Exception {
        try (WriterHarness h = WriterHarness.create(services, 2, StorageWriterIT.RULES);
             StorageWriter writer = h.start(100, 1)) {
            h.log.upsert("todos", "a", "{\"id\":\"a\",\"title\":\"a\",\"owner\":\"u1\",\"done\":false}");
            h.log.barrier();
            h.awaitCaughtUp(Duration.ofSeconds(30), List.of(writer));
            String before = topicId(h);
            try (Admin admin = Admin.create(services.kafkaProperties())) {
                admin.deleteTopics(List.of(h.names.rows())).all().get();
                await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
                    TopicProvisioner.ensure(admin, h.names, TopicLayout.of(h.partitions, 1, (short) 1));
                    return !topicId(h).equals(before);
                });
            }
            String after = topicId(h);
            h.log.upsert("todos", "b", "{\"id\":\"b\",\"title\":\"b\",\"owner\":\"u1\",\"done\":false}");
            h.log.barrier();
            h.log.flush();

            // Stopped by the watch (naming both ids), or by its consumer finding its position outside the new log.
            await().atMost(DETECTION).until(() -> writer.failure().isPresent());
            assertThat(writer.failure().get()).hasMessageContaining(h.names.rows());
            writer.close();
            TableLogLostException lost = failureOfAStart(h);
            assertThat(lost.loss()).isEqualTo(TableLogLostException.Loss.LOG);
            assertThat(lost.getMessage()).contains(h.names.rows(), before, after, "tributary recover");
        }
    }

    /**
     * A new cluster behind the same address holds no topic until one is provisioned again: the log the group read
     * is gone as surely as when the topic is created again under a new id.
     */
    @Test
    void aRowsTopicDeletedWhileTheWriterRunsStopsItWithinSecondsThoughNoNewOneExists(TestServices services)
        throws Exception {
        try (WriterHarness h = WriterHarness.create(services, 2, StorageWriterIT.RULES);
             StorageWriter writer = h.start(100, 1)) {
            h.log.upsert("todos", "a", "{\"id\":\"a\",\"title\":\"a\",\"owner\":\"u1\",\"done\":false}");
            h.log.barrier();
            h.awaitCaughtUp(Duration.ofSeconds(30), List.of(writer));
            String before = topicId(h);
            try (Admin admin = Admin.create(services.kafkaProperties())) {
                admin.deleteTopics(List.of(h.names.rows())).all().get();
            }

            await("the writer's failure after " + h.names.rows() + " was deleted").atMost(DETECTION)
                .until(() -> writer.failure().isPresent());
            assertThat(writer.failure().get()).isInstanceOf(TableLogLostException.class)
                .hasMessageContaining(h.names.rows()).hasMessageContaining(before)
                .hasMessageContaining("tributary recover");
            assertThat(((TableLogLostException) writer.failure().get()).loss())
                .isEqualTo(TableLogLostException.Loss.LOG);
        }
    }

    @Test
    void aWriterStartAfterRowsWasDeletedFailsNamingTheLostLogThoughNoNewOneExists(TestServices services)
        throws Exception {
        try (WriterHarness h = WriterHarness.create(services, 2, StorageWriterIT.RULES)) {
            writeAndApply(h);
            String before = topicId(h);
            try (Admin admin = Admin.create(services.kafkaProperties())) {
                admin.deleteTopics(List.of(h.names.rows())).all().get();
            }

            TableLogLostException lost = failureOfAStart(h);
            assertThat(lost.loss()).isEqualTo(TableLogLostException.Loss.LOG);
            assertThat(lost.getMessage()).contains(h.names.rows(), before, "tributary recover");
        }
    }

    /** A group no writer started yet recorded no log: a missing topic is a deployment not provisioned yet. */
    @Test
    void aFirstWriterStartWithoutRowsWaitsForTheTopicsToBeProvisioned(TestServices services) throws Exception {
        try (WriterHarness h = WriterHarness.create(services, 2, StorageWriterIT.RULES)) {
            try (Admin admin = Admin.create(services.kafkaProperties())) {
                admin.deleteTopics(List.of(h.names.rows())).all().get();
            }

            Throwable failure = catchThrowable(() -> h.start(100, 1).close());
            assertThat(failure).isInstanceOf(IllegalStateException.class)
                .isNotInstanceOf(TableLogLostException.class)
                .hasMessageContaining(h.names.rows()).hasMessageContaining("provision the topics first");
        }
    }

    @Test
    void aRowsTopicRecreatedWhileTheWriterRunsIsNeverReadFromItsStart(TestServices services) throws Exception {
        try (WriterHarness h = WriterHarness.create(services, 2, StorageWriterIT.RULES);
             StorageWriter writer = h.start(100, 1)) {
            // More records than the new log will have: the consumers' positions lie past its end.
            for (int i = 0; i < 8; i++) {
                h.log.upsert("todos", "a" + i, "{\"id\":\"a" + i + "\",\"title\":\"a\",\"owner\":\"u1\","
                    + "\"done\":false}");
            }
            h.log.barrier();
            h.awaitCaughtUp(Duration.ofSeconds(30), List.of(writer));
            try (Connection watchBlocked = h.db.connect(); Statement lock = watchBlocked.createStatement()) {
                // The periodic check of the log waits on this lock: only the consumer can notice the new log.
                watchBlocked.setAutoCommit(false);
                lock.execute("LOCK TABLE tributary.group_kafka_logs IN ACCESS EXCLUSIVE MODE");
                String before = topicId(h);
                try (Admin admin = Admin.create(services.kafkaProperties())) {
                    admin.deleteTopics(List.of(h.names.rows())).all().get();
                    await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
                        TopicProvisioner.ensure(admin, h.names, TopicLayout.of(h.partitions, 1, (short) 1));
                        return !topicId(h).equals(before);
                    });
                }
                // The consumer either fetches on at its positions, past the new log's end, or rejoins the new log
                // and claims its partitions at the stored offsets (past its end): either way it is outside the log.
                await().atMost(Duration.ofSeconds(30)).until(() -> writer.failure().isPresent()
                    || lowestFencingToken(h) >= 2);
                for (int i = 0; i < 16; i++) {
                    h.log.upsert("todos", "b" + i, "{\"id\":\"b" + i + "\",\"title\":\"b\",\"owner\":\"u1\","
                        + "\"done\":false}");
                }
                h.log.barrier();
                h.log.flush();

                await().atMost(DETECTION).until(() -> writer.failure().isPresent() || appliedRowOf(h, "b"));
                assertThat(appliedRowOf(h, "b")).as("a row of the new log applied as if it continued the old one")
                    .isFalse();
                assertThat(writer.failure().get()).hasMessageContaining(h.names.rows())
                    .hasMessageContaining("outside the log");
            }
        }
    }

    private static boolean appliedRowOf(WriterHarness h, String prefix) throws Exception {
        return h.storage.ops().stream().anyMatch(op -> op.rowId().startsWith(prefix));
    }

    private static long lowestFencingToken(WriterHarness h) throws Exception {
        try (Connection c = h.db.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT min(fencing_token) FROM tributary.partition_offsets"
                 + " WHERE group_id = " + h.groupId)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * The group's log was recorded on another cluster (as after a Kafka replaced by a new cluster at the same
     * address, whose topics were provisioned again with the same names): the start names both cluster ids.
     */
    @Test
    void aLogRecordedOnAnotherClusterStopsTheWriterNamingBothClusterIds(TestServices services) throws Exception {
        try (WriterHarness h = WriterHarness.create(services, 1, StorageWriterIT.RULES)) {
            writeAndApply(h);
            String current;
            try (Connection c = h.db.connect(); Statement s = c.createStatement()) {
                try (ResultSet rs = s.executeQuery("SELECT cluster_id FROM tributary.group_kafka_logs WHERE group_id = "
                    + h.groupId)) {
                    assertThat(rs.next()).as("the group's log is recorded").isTrue();
                    current = rs.getString(1);
                }
                s.executeUpdate("UPDATE tributary.group_kafka_logs SET cluster_id = 'lostClusterId0000000A' WHERE"
                    + " group_id = " + h.groupId);
            }

            TableLogLostException lost = failureOfAStart(h);
            assertThat(lost.loss()).isEqualTo(TableLogLostException.Loss.LOG);
            assertThat(lost.getMessage()).contains(h.names.rows(), "lostClusterId0000000A", current,
                "tributary recover");
        }
    }

    @Test
    void aStoredOffsetPastTheEndOfTheLogStopsTheWriter(TestServices services) throws Exception {
        try (WriterHarness h = WriterHarness.create(services, 1, StorageWriterIT.RULES)) {
            writeAndApply(h);
            try (Connection c = h.db.connect(); Statement s = c.createStatement()) {
                s.executeUpdate("UPDATE tributary.partition_offsets SET next_offset = 25152 WHERE group_id = "
                    + h.groupId);
            }

            TableLogLostException lost = failureOfAStart(h);
            assertThat(lost.loss()).isEqualTo(TableLogLostException.Loss.LOG);
            assertThat(lost.getMessage()).contains(h.names.rows() + "-0", "25152", "outside the log");
        }
    }

    @Test
    void recordsUnreadLongerThanTheTombstoneRetentionStopTheWriter(TestServices services) throws Exception {
        try (WriterHarness h = WriterHarness.create(services, 1, StorageWriterIT.RULES)) {
            Duration retention = Duration.ofSeconds(2);
            try (Admin admin = Admin.create(services.kafkaProperties())) {
                ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, h.names.rows());
                admin.incrementalAlterConfigs(Map.of(topic, List.of(new AlterConfigOp(
                    new ConfigEntry("delete.retention.ms", Long.toString(retention.toMillis())),
                    AlterConfigOp.OpType.SET)))).all().get();
            }
            writeAndApply(h);
            h.log.delete("todos", "a");
            h.log.barrier();
            h.log.flush();
            long written = System.nanoTime();
            await().atMost(Duration.ofSeconds(10))
                .until(() -> System.nanoTime() - written > retention.plusMillis(500).toNanos());

            TableLogLostException lost = failureOfAStart(h);
            assertThat(lost.loss()).isEqualTo(TableLogLostException.Loss.UNREAD_RECORDS);
            assertThat(lost.getMessage()).contains(h.names.rows() + "-0", "delete.retention.ms");
        }
    }

    @Test
    void aWriterResumesOnTheLogItRecorded(TestServices services) throws Exception {
        try (WriterHarness h = WriterHarness.create(services, 2, StorageWriterIT.RULES)) {
            writeAndApply(h);
            h.log.upsert("todos", "b", "{\"id\":\"b\",\"title\":\"b\",\"owner\":\"u1\",\"done\":false}");
            h.log.barrier();
            try (StorageWriter writer = h.start(100, 1)) {
                h.awaitCaughtUp(Duration.ofSeconds(30), List.of(writer));
                assertThat(StorageView.reduce(h.storage.ops())).isEqualTo(h.log.expected(h.rules).buckets());
            }
        }
    }

    /** Writes rows and a barrier, lets a writer apply them, and stops it. */
    private static void writeAndApply(WriterHarness h) throws Exception {
        h.log.upsert("todos", "a", "{\"id\":\"a\",\"title\":\"a\",\"owner\":\"u1\",\"done\":false}");
        h.log.upsert("lists", "l", "{\"id\":\"l\",\"title\":\"l\"}");
        h.log.barrier();
        try (StorageWriter writer = h.start(100, 1)) {
            h.awaitCaughtUp(Duration.ofSeconds(30), List.of(writer));
        }
    }

    /** Starts a writer and returns the failure that start or the running writer reports within {@link #DETECTION}. */
    private static TableLogLostException failureOfAStart(WriterHarness h) {
        Throwable[] failure = new Throwable[1];
        StorageWriter[] started = new StorageWriter[1];
        try {
            started[0] = h.start(100, 1);
            await().atMost(DETECTION).until(() -> started[0].failure().isPresent());
            failure[0] = started[0].failure().get();
        } catch (Exception | AssertionError e) {
            failure[0] = e;
        } finally {
            Optional.ofNullable(started[0]).ifPresent(StorageWriter::close);
        }
        assertThat(failure[0]).as("the writer's failure within %s", DETECTION)
            .isInstanceOf(TableLogLostException.class);
        return (TableLogLostException) failure[0];
    }

    private static String topicId(WriterHarness h) throws Exception {
        try (Admin admin = Admin.create(h.services.kafkaProperties())) {
            return admin.describeTopics(List.of(h.names.rows())).allTopicNames().get().get(h.names.rows()).topicId()
                .toString();
        }
    }
}
