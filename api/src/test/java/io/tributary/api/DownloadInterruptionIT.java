package io.tributary.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.tributary.api.auth.VerifiedToken;
import io.tributary.api.protocol.SyncRequest;
import io.tributary.api.protocol.WireFormat;
import io.tributary.api.stream.CheckpointWatcher;
import io.tributary.api.stream.LineSink;
import io.tributary.api.stream.StoragePool;
import io.tributary.api.stream.StreamCounters;
import io.tributary.api.stream.StreamSettings;
import io.tributary.api.stream.SyncSession;
import io.tributary.storage.groups.Checkpoint;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A checkpoint published while a client downloads a large bucket reaches it before that download completes, as
 * PowerSync's service sends it: the download stops between two data lines, the {@code checkpoint_diff} goes out, and
 * the download goes on to the new checkpoint from where the client is, every op once.
 */
@RealServices
class DownloadInterruptionIT {

    private static final String BUCKET = "by_user[\"u1\"]";
    private static final int TODOS = 40;
    private static final int PAGE = 4;

    @Test
    void aNewCheckpointDuringALongDownloadReachesTheClientBeforeTheDownloadCompletes(TestServices services)
        throws Exception {
        try (ApiFixture f = ApiFixture.create(services, SyncStreamIT.RULES)) {
            for (int i = 0; i < TODOS; i++) {
                f.rows.upsert("todos", "t" + i, "{\"id\":\"t" + i + "\",\"title\":\"first\",\"owner\":\"u1\"}");
            }
            Checkpoint first = f.checkpoint();
            f.activate();
            StreamSettings settings = StreamSettings.defaults().withPageOps(PAGE);
            AtomicReference<Checkpoint> second = new AtomicReference<>();
            try (CheckpointWatcher watcher = CheckpointWatcher.start(ApiFixture.storage(f.db), settings);
                 StoragePool pool = new StoragePool(ApiFixture.storage(f.db), 2, Duration.ofSeconds(30))) {
                await().atMost(Duration.ofSeconds(30)).until(() -> watcher.current()
                    .filter(c -> c.checkpoint().opId() == first.opId()).isPresent());
                RecordingSink sink = new RecordingSink(() -> {
                    f.rows.upsert("todos", "t0", "{\"id\":\"t0\",\"title\":\"second\",\"owner\":\"u1\"}");
                    f.rows.upsert("todos", "new", "{\"id\":\"new\",\"title\":\"second\",\"owner\":\"u1\"}");
                    Checkpoint published = f.checkpoint();
                    second.set(published);
                    await().atMost(Duration.ofSeconds(30)).until(() -> watcher.current()
                        .filter(c -> c.checkpoint().opId() == published.opId()).isPresent());
                });
                VerifiedToken token = new VerifiedToken("u1", JsonNodeFactory.instance.objectNode().put("sub", "u1"),
                    Instant.now().plus(Duration.ofHours(1)));
                SyncRequest request = new SyncRequest(Map.of(), true, "c1", JsonNodeFactory.instance.objectNode());
                StreamCounters counters = new StreamCounters();
                SyncSession session = new SyncSession(watcher, pool, settings, Clock.systemUTC(), token, request,
                    WireFormat.NDJSON, sink, counters);
                try {
                    session.run();
                } catch (RecordingSink.Done done) {
                    // the sink ends the session after the first checkpoint_complete
                }

                List<JsonNode> lines = sink.lines;
                int diff = indexOf(lines, "checkpoint_diff");
                int complete = indexOf(lines, "checkpoint_complete");
                assertThat(diff).as("a checkpoint_diff in %s", lines).isPositive();
                assertThat(diff).as("the checkpoint_diff goes out before the first checkpoint_complete: %s", lines)
                    .isLessThan(complete);
                assertThat(lines.get(complete).get("checkpoint_complete").get("last_op_id").asText())
                    .isEqualTo(Long.toString(second.get().opId()));
                assertThat(counters.downloadsInterrupted()).isEqualTo(1);
                List<Long> received = new ArrayList<>();
                long position = 0;
                for (JsonNode line : lines) {
                    JsonNode data = line.get("data");
                    if (data != null && data.get("bucket").asText().equals(BUCKET)) {
                        assertThat(data.get("after").asLong()).as("each line resumes where the last ended")
                            .isEqualTo(position);
                        data.get("data").forEach(op -> received.add(op.get("op_id").asLong()));
                        position = data.get("next_after").asLong();
                    }
                }
                assertThat(received).isEqualTo(f.opIds(BUCKET, second.get().opId()));
            }
        }
    }

    private static int indexOf(List<JsonNode> lines, String kind) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).has(kind)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Keeps every line; runs {@code onFirstData} when the first data line arrives (the stream's thread waits for it,
     * so the new checkpoint is published while the download is in progress), and ends the session at the first
     * {@code checkpoint_complete}.
     */
    private static final class RecordingSink implements LineSink {

        private final List<JsonNode> lines = new ArrayList<>();
        private final Action onFirstData;
        private boolean dataSeen;

        RecordingSink(Action onFirstData) {
            this.onFirstData = onFirstData;
        }

        @Override
        public void write(byte[] bytes) throws IOException {
            JsonNode line = SyncClient.JSON.readTree(bytes);
            lines.add(line);
            if (line.has("data") && !dataSeen) {
                dataSeen = true;
                try {
                    onFirstData.run();
                } catch (Exception e) {
                    throw new AssertionError("Publishing the second checkpoint failed", e);
                }
            }
            if (line.has("checkpoint_complete")) {
                throw new Done();
            }
        }

        @Override
        public void flush() {
        }

        /** Ends the session once the lines the test needs are in. */
        static final class Done extends IOException {
            private static final long serialVersionUID = 1L;
        }
    }

    @FunctionalInterface
    private interface Action {
        void run() throws Exception;
    }
}
