package io.tributary.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.api.stream.StreamSettings;
import io.tributary.storage.compact.BucketCompactor;
import io.tributary.storage.compact.CompactionResult;
import io.tributary.storage.compact.StorageFigures;
import io.tributary.storage.groups.Checkpoint;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Compaction of storage a real storage writer filled, and what {@code /sync/stream} serves afterwards. */
@RealServices
class CompactionIT {

    private static final Logger LOG = LoggerFactory.getLogger(CompactionIT.class);
    private static final String TODOS = "by_user[\"u1\"]";
    private static final String LISTS = "global[]";
    private static final int ROUNDS = 12;

    @Test
    void compactionKeepsEveryChecksumAndLeavesAboutOneOpPerLiveRow(TestServices services) throws Exception {
        try (ApiFixture f = ApiFixture.create(services, SyncStreamIT.RULES)) {
            List<Checkpoint> checkpoints = new ArrayList<>();
            for (int round = 0; round < ROUNDS; round++) {
                writeRound(f, round, 30);
                if (round == 4) {
                    for (int i = 24; i < 30; i++) {
                        f.rows.delete("todos", "t" + i);
                    }
                }
                checkpoints.add(f.checkpoint());
            }
            Checkpoint last = checkpoints.get(checkpoints.size() - 1);
            Map<String, long[]> before = sums(f, checkpoints);
            StorageFigures unCompacted = figures(f);

            CompactionResult result = compact(f);

            StorageFigures compacted = figures(f);
            LOG.info("Storage before compaction {} ({} ops per live row), after {} ({})", unCompacted,
                unCompacted.opsPerLiveRow(), compacted, compacted.opsPerLiveRow());
            assertThat(result.checkpoint()).isEqualTo(last.opId());
            assertThat(result.cleared()).isPositive();
            Map<String, long[]> after = sums(f, checkpoints);
            assertThat(after.keySet()).isEqualTo(before.keySet());
            for (String bucket : List.of(TODOS, LISTS)) {
                long clear = clearOp(f, bucket);
                assertThat(clear).isPositive();
                for (Checkpoint cp : checkpoints) {
                    String key = bucket + "@" + cp.opId();
                    if (cp.opId() >= clear) {
                        assertThat(after.get(key)[0]).as(key).isEqualTo(before.get(key)[0]);
                    }
                }
            }
            assertThat(compacted.liveRows()).isEqualTo(unCompacted.liveRows()).isEqualTo(20 + 24);
            assertThat(unCompacted.opsPerLiveRow()).isGreaterThan(10);
            assertThat(compacted.opsPerLiveRow()).isLessThanOrEqualTo(1.1);
            assertThat(f.storedSum(TODOS, last.opId())[1]).isLessThanOrEqualTo((long) (24 * 1.1));
            assertThat(f.storedSum(LISTS, last.opId())[1]).isLessThanOrEqualTo((long) (20 * 1.1));

            CompactionResult again = compact(f);
            assertThat(again.moved()).isZero();
            assertThat(again.cleared()).isZero();
        }
    }

    @Test
    void downloadsAfterCompactionGiveTheSameStateFreshOrResumed(TestServices services) throws Exception {
        try (ApiFixture f = ApiFixture.create(services, SyncStreamIT.RULES)) {
            Checkpoint middle = null;
            for (int round = 0; round < 6; round++) {
                writeRound(f, round, 10);
                middle = f.checkpoint();
            }
            f.activate();
            f.startApi(StreamSettings.defaults().withPageOps(7));
            Map<String, String> held;
            try (SyncClient client = SyncClient.open(f.uri("/sync/stream"), "Token " + f.token("u1"),
                "{\"raw_data\":true}")) {
                List<JsonNode> ops = SyncStreamIT.ops(client.untilComplete(), TODOS);
                held = apply(new LinkedHashMap<>(), ops);
            }
            for (int round = 6; round < 12; round++) {
                writeRound(f, round, 10);
                f.checkpoint();
            }
            f.rows.delete("todos", "t9");
            Checkpoint last = f.checkpoint();
            long expected = f.storedSum(TODOS, last.opId())[0];

            compact(f);

            try (SyncClient fresh = SyncClient.open(f.uri("/sync/stream"), "Token " + f.token("u1"),
                "{\"raw_data\":true}")) {
                List<JsonNode> lines = fresh.untilComplete();
                assertThat(lines.get(0).get("checkpoint").get("last_op_id").asLong()).isEqualTo(last.opId());
                assertThat(bucket(lines.get(0), TODOS).get("checksum").asLong()).isEqualTo(expected);
                List<JsonNode> ops = SyncStreamIT.ops(lines, TODOS);
                assertThat(ops.get(0).get("op").asText()).isEqualTo("CLEAR");
                assertThat(ops.get(0).get("data").isNull()).isTrue();
                assertThat(ops.size()).isLessThanOrEqualTo(12);
                assertThat(SyncStreamIT.sum(ops)).isEqualTo((int) expected);
                assertThat(apply(new LinkedHashMap<>(), ops)).isEqualTo(expectedTodos(11, 9));
            }

            String resume = "{\"raw_data\":true,\"buckets\":[{\"name\":\"by_user[\\\"u1\\\"]\",\"after\":\""
                + middle.opId() + "\"}]}";
            try (SyncClient resumed = SyncClient.open(f.uri("/sync/stream"), "Token " + f.token("u1"), resume)) {
                List<JsonNode> lines = resumed.untilComplete();
                assertThat(bucket(lines.get(0), TODOS).get("checksum").asLong()).isEqualTo(expected);
                List<JsonNode> ops = SyncStreamIT.ops(lines, TODOS);
                boolean cleared = ops.stream().anyMatch(op -> op.get("op").asText().equals("CLEAR"));
                assertThat(cleared).as("%s", ops).isTrue();
                long local = 0;
                for (JsonNode op : ops) {
                    local = op.get("op").asText().equals("CLEAR") ? op.get("checksum").asLong()
                        : (local + op.get("checksum").asLong()) & 0xFFFF_FFFFL;
                }
                assertThat((long) (int) local).isEqualTo(expected);
                assertThat(apply(held, ops)).isEqualTo(expectedTodos(11, 9));
            }
        }
    }

    /** Updates {@code todos} t0..t(n-1) of u1 and lists l0..l19, titles naming the round. */
    private static void writeRound(ApiFixture f, int round, int todos) {
        for (int i = 0; i < todos; i++) {
            if (round <= 4 || i < 24) {
                f.rows.upsert("todos", "t" + i,
                    "{\"id\":\"t" + i + "\",\"title\":\"r" + round + "\",\"owner\":\"u1\"}");
            }
        }
        for (int i = 0; i < 20; i++) {
            f.rows.upsert("lists", "l" + i, "{\"id\":\"l" + i + "\",\"title\":\"r" + round + "\"}");
        }
    }

    private static Map<String, String> expectedTodos(int round, int deleted) {
        Map<String, String> rows = new LinkedHashMap<>();
        for (int i = 0; i < 10; i++) {
            if (i != deleted) {
                rows.put("t" + i, "{\"id\":\"t" + i + "\",\"title\":\"r" + round + "\"}");
            }
        }
        return rows;
    }

    /** The rows a client holds after applying {@code ops} as PowerSync's client does (CLEAR drops the bucket). */
    private static Map<String, String> apply(Map<String, String> rows, List<JsonNode> ops) {
        for (JsonNode op : ops) {
            switch (op.get("op").asText()) {
                case "PUT" -> rows.put(op.get("object_id").asText(), op.get("data").asText());
                case "REMOVE" -> rows.remove(op.get("object_id").asText());
                case "CLEAR" -> rows.clear();
                case "MOVE" -> { }
                default -> throw new AssertionError("Unknown op " + op);
            }
        }
        return new HashMap<>(rows);
    }

    private static JsonNode bucket(JsonNode checkpointLine, String name) {
        for (JsonNode b : checkpointLine.get("checkpoint").get("buckets")) {
            if (b.get("bucket").asText().equals(name)) {
                return b;
            }
        }
        throw new AssertionError("No bucket " + name + " in " + checkpointLine);
    }

    /** The op id of {@code bucket}'s CLEAR op, 0 without one. */
    private static long clearOp(ApiFixture f, String bucket) throws Exception {
        try (Connection c = f.db.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT coalesce(max(op_id), 0) FROM tributary.bucket_data WHERE op = 4"
                 + " AND group_id = " + f.groupId + " AND bucket = '" + bucket + "'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static CompactionResult compact(ApiFixture f) throws Exception {
        try (Connection c = f.db.connect()) {
            return BucketCompactor.ofBatch(7).compact(c, f.groupId);
        }
    }

    private static StorageFigures figures(ApiFixture f) throws Exception {
        try (Connection c = f.db.connect()) {
            return StorageFigures.of(c, f.groupId);
        }
    }

    /** Per bucket and checkpoint, the stored sum and count up to it. */
    private static Map<String, long[]> sums(ApiFixture f, List<Checkpoint> checkpoints) throws Exception {
        Map<String, long[]> sums = new HashMap<>();
        List<String> buckets = new ArrayList<>();
        try (Connection c = f.db.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT DISTINCT bucket FROM tributary.bucket_data")) {
            while (rs.next()) {
                buckets.add(rs.getString(1));
            }
        }
        for (String bucket : buckets) {
            for (Checkpoint cp : checkpoints) {
                sums.put(bucket + "@" + cp.opId(), f.storedSum(bucket, cp.opId()));
            }
        }
        return sums;
    }
}
