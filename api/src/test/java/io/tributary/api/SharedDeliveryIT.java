package io.tributary.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.api.http.ApiServer;
import io.tributary.api.stream.StreamSettings;
import io.tributary.storage.groups.Checkpoint;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/**
 * Streams that follow checkpoint after checkpoint take each checkpoint's new ops from one read of the process (the
 * shared delta), and still get exactly the ops storage holds, in lines of at most a page, with storage's checksums.
 */
@RealServices
class SharedDeliveryIT {

    private static final Duration LINE = Duration.ofSeconds(30);
    private static final String U1 = "by_user[\"u1\"]";
    private static final String U2 = "by_user[\"u2\"]";

    @Test
    void followingStreamsGetEveryNewOpFromTheSharedRead(TestServices services) throws Exception {
        try (ApiFixture f = ApiFixture.create(services, SyncStreamIT.RULES)) {
            ApiServer api = follow(f, StreamSettings.defaults().withPageOps(2));
            assertThat(api.counters().sharedOpsSent()).isPositive();
        }
    }

    @Test
    void aCheckpointAboveTheSharedLimitIsReadByEachStream(TestServices services) throws Exception {
        try (ApiFixture f = ApiFixture.create(services, SyncStreamIT.RULES)) {
            ApiServer api = follow(f, StreamSettings.defaults().withPageOps(2).withSharedOps(1));
            assertThat(api.counters().sharedOpsSent()).isZero();
            assertThat(api.counters().opsSent()).isPositive();
        }
    }

    /** Three streams (two of u1, one of u2) through three checkpoints; checks what each received against storage. */
    private static ApiServer follow(ApiFixture f, StreamSettings settings) throws Exception {
        f.rows.upsert("todos", "t0", "{\"id\":\"t0\",\"title\":\"first\",\"owner\":\"u1\"}");
        f.rows.upsert("todos", "s0", "{\"id\":\"s0\",\"title\":\"first\",\"owner\":\"u2\"}");
        f.checkpoint();
        f.activate();
        ApiServer api = f.startApi(settings);
        LongAdder delivered = new LongAdder();
        api.counters().onCheckpointDelivered(nanos -> {
            assertThat(nanos).isPositive();
            delivered.increment();
        });
        Map<SyncClient, String> clients = new LinkedHashMap<>();
        Map<SyncClient, List<JsonNode>> received = new LinkedHashMap<>();
        try {
            for (String user : List.of("u1", "u1", "u2")) {
                SyncClient client = SyncClient.open(f.uri("/sync/stream"), "Token " + f.token(user),
                    "{\"raw_data\":true}");
                clients.put(client, user);
                received.put(client, new ArrayList<>(SyncStreamIT.ops(client.untilComplete(),
                    "by_user[\"" + user + "\"]")));
            }
            Checkpoint cp = null;
            for (int round = 1; round <= 3; round++) {
                for (int i = 0; i < 3; i++) {
                    f.rows.upsert("todos", "t" + round + i, "{\"id\":\"t" + round + i + "\",\"title\":\"r" + round
                        + "\",\"owner\":\"u1\"}");
                }
                f.rows.upsert("todos", "s0", "{\"id\":\"s0\",\"title\":\"r" + round + "\",\"owner\":\"u2\"}");
                cp = f.checkpoint();
                long opId = cp.opId();
                for (Map.Entry<SyncClient, String> client : clients.entrySet()) {
                    List<JsonNode> lines = client.getKey().until(line -> line.has("checkpoint_complete")
                        && line.get("checkpoint_complete").get("last_op_id").asLong() >= opId, LINE);
                    String bucket = "by_user[\"" + client.getValue() + "\"]";
                    for (JsonNode line : lines) {
                        if (line.has("data")) {
                            assertThat(line.get("data").get("bucket").asText()).isEqualTo(bucket);
                            assertThat(line.get("data").get("data").size()).isBetween(1, 2);
                        }
                    }
                    received.get(client.getKey()).addAll(SyncStreamIT.ops(lines, bucket));
                    JsonNode diff = lines.stream().filter(l -> l.has("checkpoint_diff")).reduce((a, b) -> b)
                        .orElseThrow().get("checkpoint_diff");
                    long[] stored = f.storedSum(bucket, opId);
                    assertThat(diff.get("updated_buckets").get(0).get("checksum").asLong()).isEqualTo(stored[0]);
                    assertThat(diff.get("updated_buckets").get(0).get("count").asLong()).isEqualTo(stored[1]);
                }
            }
            for (Map.Entry<SyncClient, String> client : clients.entrySet()) {
                String bucket = client.getValue().equals("u1") ? U1 : U2;
                List<JsonNode> ops = received.get(client.getKey());
                assertThat(ops).extracting(op -> Long.parseLong(op.get("op_id").asText()))
                    .containsExactlyElementsOf(storedOpIds(f, bucket, cp.opId()));
                assertThat(SyncStreamIT.sum(ops)).isEqualTo((int) f.storedSum(bucket, cp.opId())[0]);
            }
            assertThat(delivered.sum()).isGreaterThanOrEqualTo(3 * 3);
        } finally {
            for (SyncClient client : clients.keySet()) {
                client.close();
            }
        }
        return api;
    }

    private static List<Long> storedOpIds(ApiFixture f, String bucket, long upTo) throws Exception {
        List<Long> ids = new ArrayList<>();
        try (Connection c = f.db.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT op_id FROM tributary.bucket_data WHERE group_id = " + f.groupId
                 + " AND bucket = '" + bucket + "' AND op_id <= " + upTo + " ORDER BY op_id")) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        return ids;
    }
}
