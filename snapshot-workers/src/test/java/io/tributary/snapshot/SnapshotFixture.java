package io.tributary.snapshot;

import io.tributary.postgres.PgEndpoint;
import io.tributary.postgres.RetryPolicy;
import io.tributary.source.catalog.SourceCatalog;
import io.tributary.source.catalog.TableSchema;
import io.tributary.source.encoding.EncodedRow;
import io.tributary.source.encoding.JdbcRowEncoder;
import io.tributary.storage.progress.PlannedChunk;
import io.tributary.storage.progress.SnapshotPriority;
import io.tributary.storage.progress.SnapshotProgress;
import io.tributary.storage.progress.WindowKey;
import io.tributary.storage.progress.WindowPlan;
import io.tributary.storage.progress.WindowProgress;
import io.tributary.storage.schema.Migrations;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.TestServices;
import io.tributary.topics.TopicLayout;
import io.tributary.topics.TopicNames;
import io.tributary.topics.codec.Partitioning;
import io.tributary.topics.codec.TopicCodec;
import io.tributary.topics.messages.ChunkDone;
import io.tributary.topics.messages.ChunkRange;
import io.tributary.topics.messages.ChunkTask;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.SnapshotRow;
import io.tributary.topics.messages.SnapshotRowBatch;
import io.tributary.topics.messages.SnapshotRowsMessage;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TaskPriority;
import io.tributary.topics.provision.TopicProvisioner;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A source database, a storage database and provisioned topics for one test, with helpers to plan chunks the way
 * the planner does (windows and chunks in storage, tasks in their priority's partitions) and to read back what
 * the workers published.
 */
final class SnapshotFixture {

    static final TopicLayout LAYOUT = TopicLayout.of(3, 3, (short) 1);

    final TestServices services;
    final PostgresDatabase source;
    final PostgresDatabase storage;
    final TopicNames topics;

    SnapshotFixture(TestServices services) throws Exception {
        this.services = services;
        this.source = services.newDatabase();
        this.storage = services.newDatabase();
        this.topics = TopicNames.withPrefix(services.topicPrefix());
        try (Connection c = storage.connect()) {
            Migrations.migrate(c);
        }
        try (Admin admin = Admin.create(services.kafkaProperties())) {
            TopicProvisioner.ensure(admin, topics, LAYOUT);
        }
    }

    SnapshotWorkerConfig config(int loops) {
        return SnapshotWorkerConfig.of(services.kafkaProperties(), topics, LAYOUT, endpoint(source), endpoint(storage),
            loops, 2).withRetry(new RetryPolicy(Duration.ofMillis(50), Duration.ofMillis(500), Duration.ofSeconds(30)));
    }

    /** Waits until the workers' consumer group has {@code members} members and is stable. */
    void awaitMembers(SnapshotWorkerConfig config, int members) {
        try (Admin admin = Admin.create(services.kafkaProperties())) {
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> {
                ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(config.consumerGroup()))
                    .all().get().get(config.consumerGroup());
                return group.groupState() == GroupState.STABLE && group.members().size() == members;
            });
        }
    }

    static PgEndpoint endpoint(PostgresDatabase db) {
        return new PgEndpoint(db.jdbcUrl(), db.user(), db.password());
    }

    /**
     * Plans a window of {@code table} with chunks cut at {@code boundaries} (canonical key arrays, ascending),
     * stores it and publishes its tasks; returns the tasks.
     */
    List<ChunkTask> plan(TableId table, TaskPriority priority, List<String> boundaries) throws Exception {
        String windowId = "w-" + table.name();
        WindowKey window = WindowKey.of(table.schema(), table.name(), windowId);
        List<PlannedChunk> chunks = new ArrayList<>();
        List<ChunkTask> tasks = new ArrayList<>();
        for (int i = 0; i <= boundaries.size(); i++) {
            Optional<String> lo = i == 0 ? Optional.empty() : Optional.of(boundaries.get(i - 1));
            Optional<String> hi = i == boundaries.size() ? Optional.empty() : Optional.of(boundaries.get(i));
            String chunkId = windowId + "#" + i;
            chunks.add(new PlannedChunk(chunkId, i, lo, hi));
            tasks.add(ChunkTask.first(chunkId, table, new ChunkRange(lo.map(KeyValues::of), hi.map(KeyValues::of)),
                priority, windowId));
        }
        try (Connection c = storage.connect()) {
            SnapshotProgress.open(c, Map.of(window, SnapshotPriority.valueOf(priority.name())));
            SnapshotProgress.storeChunks(c, List.of(new WindowPlan(window, 0, chunks)));
            SnapshotProgress.markSnapshotting(c, List.of(window));
        }
        publish(tasks);
        return tasks;
    }

    void publish(List<ChunkTask> tasks) {
        Properties props = services.kafkaProperties();
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
            new ByteArraySerializer())) {
            for (ChunkTask task : tasks) {
                producer.send(TopicCodec.SNAPSHOT_TASKS.record(topics.snapshotTasks(),
                    Partitioning.taskPartition(task, LAYOUT), task));
            }
            producer.flush();
        }
    }

    /** The window of {@code table} planned by {@link #plan}. */
    Optional<WindowProgress> window(TableId table) throws Exception {
        try (Connection c = storage.connect()) {
            return SnapshotProgress.find(c, WindowKey.of(table.schema(), table.name(), "w-" + table.name()));
        }
    }

    /**
     * Every message of {@code snapshot-rows}, with its partition; the rows of a {@link SnapshotRowBatch} one by one,
     * in their order, in the batch's partition.
     */
    List<Published> snapshotRows() {
        Properties props = services.kafkaProperties();
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<Published> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (int p = 0; p < LAYOUT.partitions(); p++) {
                partitions.add(new TopicPartition(topics.snapshotRows(), p));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    SnapshotRowsMessage message = TopicCodec.SNAPSHOT_ROWS.decode(record);
                    if (message instanceof SnapshotRowBatch batch) {
                        batch.rows().forEach(row -> out.add(new Published(record.partition(), row)));
                    } else {
                        out.add(new Published(record.partition(), message));
                    }
                }
            }
        }
        return out;
    }

    /** A record of {@code snapshot-rows}. */
    record Published(int partition, SnapshotRowsMessage message) {
    }

    /**
     * The rows of {@code table} as the newest done attempt of each chunk published them, by primary key text;
     * fails on a duplicate key or on a row in the wrong partition.
     */
    static Map<String, String> newestAttemptRows(List<Published> published, TableId table) {
        Map<String, Integer> newestDone = new HashMap<>();
        for (Published p : published) {
            if (p.message() instanceof ChunkDone done && done.table().equals(table)) {
                newestDone.merge(done.chunkId(), done.attempt(), Math::max);
            }
        }
        Map<String, String> rows = new TreeMap<>();
        for (Published p : published) {
            if (p.message() instanceof SnapshotRow row && row.table().equals(table)
                && newestDone.getOrDefault(row.chunkId(), -1) == row.attempt()) {
                int expectedPartition = Partitioning.partitionFor(row.rowKey(), LAYOUT.partitions());
                if (expectedPartition != p.partition()) {
                    throw new AssertionError("Row " + row.rowKey() + " in partition " + p.partition() + ", expected "
                        + expectedPartition);
                }
                if (rows.put(row.pk().json(), row.row().json()) != null) {
                    throw new AssertionError("Duplicate row " + row.rowKey() + " in attempt " + row.attempt());
                }
            }
        }
        return rows;
    }

    /** Every row of {@code table} in the canonical encoding, by primary key text. */
    Map<String, String> sourceRows(TableId table) throws Exception {
        Map<String, String> rows = new TreeMap<>();
        try (Connection c = source.connect()) {
            TableSchema schema = new SourceCatalog(c).describe(table);
            JdbcRowEncoder encoder = JdbcRowEncoder.forTable(schema);
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT " + encoder.selectList() + " FROM " + table.quoted())) {
                while (rs.next()) {
                    EncodedRow row = encoder.encode(rs);
                    rows.put(row.key().json(), row.row().orElseThrow().json());
                }
            }
        }
        return rows;
    }

    /** The key of the {@code offset}-th row of {@code table} in key order, as a canonical key array. */
    String keyAt(TableId table, int offset) throws Exception {
        try (Connection c = source.connect()) {
            TableSchema schema = new SourceCatalog(c).describe(table);
            JdbcRowEncoder encoder = JdbcRowEncoder.forTable(schema);
            String order = String.join(", ", schema.keyColumns().stream().map(k -> "\"" + k + "\"").toList());
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT " + encoder.selectList() + " FROM " + table.quoted()
                     + " ORDER BY " + order + " OFFSET " + offset + " LIMIT 1")) {
                rs.next();
                return encoder.encode(rs).key().json();
            }
        }
    }
}
