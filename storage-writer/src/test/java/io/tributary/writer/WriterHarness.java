package io.tributary.writer;

import static org.awaitility.Awaitility.await;

import io.tributary.postgres.PgEndpoint;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.progress.LoadedTables;
import io.tributary.storage.schema.Migrations;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.TestServices;
import io.tributary.topics.TopicLayout;
import io.tributary.topics.TopicNames;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.provision.TopicProvisioner;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;

/** One writer test's world: a storage database with a group, fresh topics, a rows log and writer configs. */
final class WriterHarness implements AutoCloseable {

    /** The tables the writer tests write rows of ({@code public.<table>}, see {@link RowsLog}). */
    static final List<String> TABLES = List.of("public.lists", "public.todos", "public.accounts");

    final TestServices services;
    final PostgresDatabase db;
    final TopicNames names;
    final int partitions;
    final String rules;
    final long groupId;
    final RowsLog log;
    final StorageView storage;

    private WriterHarness(TestServices services, PostgresDatabase db, TopicNames names, int partitions, String rules,
                          long groupId) {
        this.services = services;
        this.db = db;
        this.names = names;
        this.partitions = partitions;
        this.rules = rules;
        this.groupId = groupId;
        this.log = new RowsLog(services.kafkaProperties(), names.rows(), partitions);
        this.storage = new StorageView(db, groupId);
    }

    /**
     * A harness whose group is planned already, every table of {@link #TABLES} with a complete snapshot window (as
     * the snapshot planner and workers would leave them), so it may checkpoint.
     */
    static WriterHarness create(TestServices services, int partitions, String rules) throws Exception {
        WriterHarness h = createUnplanned(services, partitions, rules);
        h.markPlanned();
        return h;
    }

    /**
     * A harness whose group is planned but whose tables have no snapshot window: as if each were created after the
     * group was planned.
     */
    static WriterHarness createPlannedWithoutWindows(TestServices services, int partitions, String rules)
        throws Exception {
        WriterHarness h = createUnplanned(services, partitions, rules);
        try (Connection c = h.db.connect()) {
            SyncRulesGroups.markPlanned(c, List.of(h.groupId));
        }
        return h;
    }

    /** A harness whose group no snapshot planning round has seen yet: its checkpoints are held. */
    static WriterHarness createUnplanned(TestServices services, int partitions, String rules) throws Exception {
        PostgresDatabase db = services.newDatabase();
        long groupId;
        try (Connection c = db.connect()) {
            Migrations.migrate(c);
            groupId = SyncRulesGroups.create(c, rules).id();
        }
        TopicNames names = TopicNames.withPrefix(services.topicPrefix());
        try (Admin admin = Admin.create(services.kafkaProperties())) {
            TopicProvisioner.ensure(admin, names, TopicLayout.of(partitions, 1, (short) 1));
        }
        return new WriterHarness(services, db, names, partitions, rules, groupId);
    }

    /**
     * Marks the group planned and every table of {@link #TABLES} snapshotted before the first epoch, as a planning
     * round that stored every window the group reads, and the windows' completion, do.
     */
    void markPlanned() throws Exception {
        try (Connection c = db.connect()) {
            LoadedTables.markLoaded(c, groupId, partitions, TABLES);
            SyncRulesGroups.markPlanned(c, List.of(groupId));
        }
    }

    /** Stores window {@code windowId} of {@code public.<table>} as the planner opens it (SNAPSHOTTING). */
    void openWindow(String table, String windowId) throws Exception {
        db.execute("INSERT INTO tributary.source_tables (table_schema, table_name, window_id, state, priority)"
            + " VALUES ('public', '" + table + "', '" + windowId + "', 'SNAPSHOTTING', 'ACTIVE_SNAPSHOT')");
    }

    /** Writes the table-ready marker of {@code table}'s window {@code windowId} into every partition of rows. */
    void tableReadyEverywhere(String table, String windowId, Lsn highWatermark) {
        for (int partition = 0; partition < partitions; partition++) {
            log.tableReady(partition, table, windowId, highWatermark);
        }
    }

    /** Kafka properties for writers: fast failure detection, so rebalance tests stay short. */
    Properties writerKafka() {
        Properties kafka = services.kafkaProperties();
        kafka.put("session.timeout.ms", "6000");
        kafka.put("heartbeat.interval.ms", "500");
        return kafka;
    }

    WriterConfig config(int batchRecords, int threads) {
        return config(batchRecords, threads, db.jdbcUrl());
    }

    /** A writer config whose storage is reached at {@code jdbcUrl} (e.g. through a proxy). */
    WriterConfig config(int batchRecords, int threads, String jdbcUrl) {
        return config(writerKafka(), batchRecords, threads, jdbcUrl);
    }

    private WriterConfig config(Properties kafka, int batchRecords, int threads, String jdbcUrl) {
        return WriterConfig.of(kafka, names, new PgEndpoint(jdbcUrl, db.user(), db.password()),
            groupId, rules, batchRecords, threads).withTuning(WriterTuning.defaults()
            .withCheckpointInterval(Duration.ofMillis(50)).withRetryDeadline(Duration.ofSeconds(30)));
    }

    /** A writer of another group of this harness's database ({@code group}), on the same topics. */
    StorageWriter startGroup(long group, int batchRecords) throws Exception {
        return StorageWriter.start(WriterConfig.of(writerKafka(), names, new PgEndpoint(db.jdbcUrl(), db.user(),
            db.password()), group, rules, batchRecords, 1).withTuning(WriterTuning.defaults()
            .withCheckpointInterval(Duration.ofMillis(50)).withRetryDeadline(Duration.ofSeconds(30))));
    }

    StorageWriter start(int batchRecords, int threads) throws Exception {
        return StorageWriter.start(config(batchRecords, threads));
    }

    /** A writer whose group gives up every partition at each rebalance (Kafka's range assignor, which is eager). */
    StorageWriter startEager(int batchRecords, int threads) throws Exception {
        Properties kafka = writerKafka();
        kafka.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, RangeAssignor.class.getName());
        return StorageWriter.start(config(kafka, batchRecords, threads, db.jdbcUrl()));
    }

    /** The writers' consumer group. */
    String consumerGroup() throws SQLException {
        try (Connection c = db.connect()) {
            return SyncRulesGroups.find(c, groupId).orElseThrow().consumerGroup(names.prefix());
        }
    }

    /** Waits until the writers' consumer group is stable with {@code members} members. */
    void awaitStableGroup(int members, Duration timeout) throws Exception {
        String name = consumerGroup();
        try (Admin admin = Admin.create(services.kafkaProperties())) {
            await().atMost(timeout).pollInterval(Duration.ofMillis(50)).until(() -> {
                ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(name)).all().get().get(name);
                return group.groupState() == GroupState.STABLE && group.members().size() == members;
            });
        }
    }

    /** The end offset of every partition of rows. */
    Map<Integer, Long> endOffsets() throws Exception {
        try (Admin admin = Admin.create(services.kafkaProperties())) {
            Map<TopicPartition, OffsetSpec> request = IntStream.range(0, partitions).boxed()
                .collect(Collectors.toMap(p -> new TopicPartition(names.rows(), p), p -> OffsetSpec.latest()));
            Map<Integer, Long> ends = new HashMap<>();
            admin.listOffsets(request).all().get().forEach((tp, info) -> ends.put(tp.partition(), info.offset()));
            return ends;
        }
    }

    /** Waits until storage holds every record written so far. */
    void awaitCaughtUp(Duration timeout, List<StorageWriter> writers) throws Exception {
        log.flush();
        Map<Integer, Long> ends = endOffsets();
        await().atMost(timeout).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
            for (StorageWriter writer : writers) {
                if (writer.failure().isPresent()) {
                    throw new AssertionError("Writer failed", writer.failure().get());
                }
            }
            org.assertj.core.api.Assertions.assertThat(storage.storedOffsets()).isEqualTo(ends);
        });
    }

    @Override
    public void close() {
        log.close();
    }
}
