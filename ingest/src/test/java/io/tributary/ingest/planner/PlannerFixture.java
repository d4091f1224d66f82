package io.tributary.ingest.planner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.source.catalog.SourceCatalog;
import io.tributary.source.catalog.TableSchema;
import io.tributary.source.sql.Identifiers;
import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.progress.SnapshotProgress;
import io.tributary.storage.progress.WindowProgress;
import io.tributary.storage.schema.Migrations;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.TestServices;
import io.tributary.topics.TopicLayout;
import io.tributary.topics.TopicNames;
import io.tributary.topics.codec.TopicCodec;
import io.tributary.topics.messages.ChunkRange;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TopicMessage;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A source and a storage database and a topic prefix for one planner test, sync rules groups whose "rules" are
 * table patterns ({@code schema.table} per line, {@code %} matching anything), and readers of what the planner
 * published.
 */
final class PlannerFixture {

    static final TopicLayout LAYOUT = TopicLayout.of(3, 2, (short) 1);
    static final ObjectMapper JSON = new ObjectMapper();

    /** Rules as table patterns, one per line. */
    static final RulesMatcher PATTERNS = (rules, tables) -> {
        List<Pattern> patterns = rules.lines().filter(l -> !l.isBlank())
            .map(l -> Pattern.compile(Pattern.quote(l.trim()).replace("%", "\\E.*\\Q"))).toList();
        Set<String> matching = new LinkedHashSet<>();
        for (String table : tables) {
            if (patterns.stream().anyMatch(p -> p.matcher(table).matches())) {
                matching.add(table);
            }
        }
        return matching;
    };

    final TestServices services;
    final PostgresDatabase source;
    final PostgresDatabase storage;
    final TopicNames topics;

    PlannerFixture(TestServices services) throws SQLException {
        this.services = services;
        this.source = services.newDatabase();
        this.storage = services.newDatabase();
        this.topics = TopicNames.withPrefix(services.topicPrefix());
        try (Connection c = storage.connect()) {
            Migrations.migrate(c);
        }
    }

    PlannerConfig config(int chunkRows) {
        return PlannerConfig.of(services.kafkaProperties(), topics, LAYOUT).withChunkRows(chunkRows);
    }

    SnapshotPlanner planner(int chunkRows) {
        return SnapshotPlanner.create(config(chunkRows), source::connect, storage::connect, PATTERNS);
    }

    /** A sync rules group reading the tables matching {@code patterns}, in {@code state}. */
    SyncRulesGroup group(GroupState state, String... patterns) throws SQLException {
        try (Connection c = storage.connect()) {
            SyncRulesGroup group = SyncRulesGroups.create(c, String.join("\n", patterns));
            if (state == GroupState.ACTIVE) {
                SyncRulesGroups.transition(c, group.id(), GroupState.PROCESSING, GroupState.ACTIVE);
            }
            return group;
        }
    }

    /**
     * Records what {@code group}'s storage writers record when they apply a barrier: epoch {@code epoch}, at
     * {@code lsn}, sealed in each of {@code partitions}.
     */
    void sealed(SyncRulesGroup group, long epoch, String lsn, int... partitions) throws SQLException {
        for (int partition : partitions) {
            storage.execute("INSERT INTO tributary.sealed_epochs (group_id, partition, epoch, lsn, max_op_id)"
                + " VALUES (" + group.id() + ", " + partition + ", " + epoch + ", '" + lsn + "', 0)");
        }
    }

    /** The WAL position the planner recorded past the marker of {@code table}'s newest window. */
    String markerPosition(TableId table) throws SQLException {
        try (Connection c = storage.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT marker_lsn::text FROM tributary.source_tables"
                 + " WHERE table_schema = '" + table.schema() + "' AND table_name = '" + table.name() + "'"
                 + " ORDER BY started_at DESC, window_id DESC LIMIT 1")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** Whether the planner marked {@code group} planned (every table it reads has a window). */
    boolean isPlanned(SyncRulesGroup group) throws SQLException {
        try (Connection c = storage.connect()) {
            return SyncRulesGroups.isPlanned(c, group.id());
        }
    }

    List<WindowProgress> windows() throws SQLException {
        try (Connection c = storage.connect()) {
            return SnapshotProgress.latestWindows(c);
        }
    }

    WindowProgress window(TableId table) throws SQLException {
        return windows().stream().filter(w -> w.window().schema().equals(table.schema())
            && w.window().table().equals(table.name())).findFirst().orElseThrow();
    }

    /** A record read back, with its partition. */
    record Read<M extends TopicMessage>(int partition, M message) {
    }

    List<Read<TopicMessage>> tasks() {
        return read(topics.snapshotTasks(), LAYOUT.snapshotTaskPartitions(), TopicCodec.SNAPSHOT_TASKS::decode);
    }

    List<Read<TopicMessage>> snapshotRows() {
        return read(topics.snapshotRows(), LAYOUT.partitions(), TopicCodec.SNAPSHOT_ROWS::decode);
    }

    private List<Read<TopicMessage>> read(String topic, int partitionCount,
                                          Function<ConsumerRecord<byte[], byte[]>, ? extends TopicMessage> decode) {
        Properties props = services.kafkaProperties();
        List<Read<TopicMessage>> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (int p = 0; p < partitionCount; p++) {
                partitions.add(new TopicPartition(topic, p));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    out.add(new Read<>(record.partition(), decode.apply(record)));
                }
            }
        }
        return out;
    }

    /** The rows of {@code table} in {@code range}, counted with the same casts a worker's range query uses. */
    long count(TableId table, ChunkRange range) throws Exception {
        try (Connection c = source.connect()) {
            TableSchema schema = new SourceCatalog(c).describe(table);
            List<String> keys = schema.keyColumns();
            String columns = "(" + keys.stream().map(Identifiers::quote).collect(Collectors.joining(", ")) + ")";
            String casts = "(" + keys.stream().map(k -> "?::" + schema.column(k).orElseThrow().formattedType())
                .collect(Collectors.joining(", ")) + ")";
            List<String> conditions = new ArrayList<>();
            List<String> values = new ArrayList<>();
            range.lo().ifPresent(lo -> {
                conditions.add(columns + " >= " + casts);
                values.addAll(texts(lo));
            });
            range.hi().ifPresent(hi -> {
                conditions.add(columns + " < " + casts);
                values.addAll(texts(hi));
            });
            String where = conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions);
            try (PreparedStatement s = c.prepareStatement("SELECT count(*) FROM " + table.quoted() + where)) {
                for (int i = 0; i < values.size(); i++) {
                    s.setString(i + 1, values.get(i));
                }
                try (ResultSet rs = s.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        }
    }

    private static List<String> texts(KeyValues key) {
        try {
            List<String> texts = new ArrayList<>();
            for (JsonNode value : JSON.readTree(key.json())) {
                texts.add(value.isTextual() ? value.textValue() : value.toString());
            }
            return texts;
        } catch (Exception e) {
            throw new IllegalArgumentException(key.json(), e);
        }
    }

    /** Counts of rows of the table per chunk, in order. */
    List<Long> countsPerChunk(TableId table, List<ChunkRange> ranges) throws Exception {
        List<Long> counts = new ArrayList<>();
        for (ChunkRange range : ranges) {
            counts.add(count(table, range));
        }
        return counts;
    }
}
