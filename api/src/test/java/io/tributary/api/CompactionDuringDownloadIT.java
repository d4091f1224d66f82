package io.tributary.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.api.stream.StreamSettings;
import io.tributary.storage.compact.BucketCompactor;
import io.tributary.storage.compact.CompactionResult;
import io.tributary.storage.groups.Checkpoint;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A compaction that runs while a slow client downloads an older checkpoint: the server has sent the first pages of
 * checkpoint C1 and waits for the client; meanwhile every row is updated (checkpoint C2) and a compaction up to C2
 * folds all of C1's ops into a CLEAR. The server must not complete C1 with what it reads afterwards (the CLEAR
 * would leave the client without the rows it held at C1, with a checksum that adds up); the client completes C2
 * holding every row, and every checkpoint it completes adds up and holds every row.
 */
@RealServices
class CompactionDuringDownloadIT {

    private static final int TODOS = 2_000;
    private static final String BUCKET = "by_user[\"u1\"]";
    /** About 1 KiB a row, so C1's 4,000 ops (4 MiB) outgrow what the socket buffers hold. */
    private static final String TITLE = "x".repeat(1_000);

    @Test
    void aCheckpointWhoseOpsACompactionRewroteMidDownloadIsNotCompleted(TestServices services) throws Exception {
        try (ApiFixture f = ApiFixture.create(services, SyncStreamIT.RULES)) {
            writeRound(f, 0);
            f.checkpoint();
            writeRound(f, 1);
            Checkpoint first = f.checkpoint();
            f.activate();
            f.startApi(StreamSettings.defaults().withPageOps(50));

            try (ThrottledStream stream = ThrottledStream.open(f.uri("/sync/stream"), "Token " + f.token("u1"),
                "{\"raw_data\":true}")) {
                List<JsonNode> start = stream.until(line -> line.has("data")
                    && line.get("data").get("bucket").asText().equals(BUCKET));
                assertThat(start.get(0).get("checkpoint").get("last_op_id").asLong()).isEqualTo(first.opId());

                writeRound(f, 2);
                Checkpoint second = f.checkpoint();
                CompactionResult result;
                try (Connection c = f.db.connect()) {
                    result = BucketCompactor.ofBatch(500).compact(c, f.groupId);
                }
                assertThat(result.checkpoint()).isEqualTo(second.opId());
                assertThat(result.cleared()).as("C1's ops folded into a CLEAR").isGreaterThanOrEqualTo(TODOS);

                stream.until(line -> line.has("checkpoint_complete")
                    && line.get("checkpoint_complete").get("last_op_id").asLong() >= second.opId());
                List<ProtocolAudit.Completed> completed = ProtocolAudit.replay(stream.lines());
                assertThat(completed).as("completed checkpoints").isNotEmpty().allSatisfy(c -> {
                    assertThat(c.checksumMismatches()).as("checksums at %d", c.opId()).isEmpty();
                    assertThat(c.liveRows().get(BUCKET)).as("rows at %d", c.opId()).isEqualTo(TODOS);
                });
                assertThat(completed.get(completed.size() - 1).opId()).isEqualTo(second.opId());
            }
        }
    }

    /**
     * The same fold while the client's buckets do not change in the newer checkpoint (another user's row does): the
     * older checkpoint is left incomplete, so the newer one must still reach the client and complete, though it
     * changes none of its buckets.
     */
    @Test
    void aCheckpointLeftIncompleteIsFollowedByTheNextOneEvenWhenItChangesNoneOfTheClientsBuckets(
        TestServices services) throws Exception {
        try (ApiFixture f = ApiFixture.create(services, SyncStreamIT.RULES)) {
            writeRound(f, 0);
            f.checkpoint();
            writeRound(f, 1);
            Checkpoint first = f.checkpoint();
            f.activate();
            f.startApi(StreamSettings.defaults().withPageOps(50).withKeepaliveInterval(Duration.ofSeconds(5)));

            try (ThrottledStream stream = ThrottledStream.open(f.uri("/sync/stream"), "Token " + f.token("u1"),
                "{\"raw_data\":true}")) {
                List<JsonNode> start = stream.until(line -> line.has("data")
                    && line.get("data").get("bucket").asText().equals(BUCKET));
                assertThat(start.get(0).get("checkpoint").get("last_op_id").asLong()).isEqualTo(first.opId());

                f.rows.upsert("todos", "other", "{\"id\":\"other\",\"title\":\"o\",\"owner\":\"u2\"}");
                Checkpoint second = f.checkpoint();
                CompactionResult result;
                try (Connection c = f.db.connect()) {
                    result = BucketCompactor.ofBatch(500).compact(c, f.groupId);
                }
                assertThat(result.checkpoint()).isEqualTo(second.opId());
                assertThat(result.cleared()).as("superseded ops folded into a CLEAR").isGreaterThanOrEqualTo(TODOS);

                // Idle, the stream sends a keepalive every 5 s: a second one means it stopped serving.
                AtomicInteger keepalives = new AtomicInteger();
                List<JsonNode> after = stream.until(line -> (line.has("checkpoint_complete")
                    && line.get("checkpoint_complete").get("last_op_id").asLong() >= second.opId())
                    || line.has("token_expires_in") && keepalives.incrementAndGet() == 2);
                assertThat(after.get(after.size() - 1).has("checkpoint_complete"))
                    .as("the newer checkpoint completes before the stream idles").isTrue();
                List<ProtocolAudit.Completed> completed = ProtocolAudit.replay(stream.lines());
                assertThat(completed).as("completed checkpoints").isNotEmpty().allSatisfy(c -> {
                    assertThat(c.checksumMismatches()).as("checksums at %d", c.opId()).isEmpty();
                    assertThat(c.liveRows().get(BUCKET)).as("rows at %d", c.opId()).isEqualTo(TODOS);
                });
                assertThat(completed.get(completed.size() - 1).opId()).isEqualTo(second.opId());
            }
        }
    }

    private static void writeRound(ApiFixture f, int round) {
        for (int i = 0; i < TODOS; i++) {
            f.rows.upsert("todos", "t" + i, "{\"id\":\"t" + i + "\",\"title\":\"round " + round + " " + TITLE
                + "\",\"owner\":\"u1\"}");
        }
    }
}
