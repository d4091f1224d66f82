package io.tributary.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.storage.progress.WindowProgress;
import io.tributary.storage.progress.WindowStatus;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.testing.kafka.RecordFaults;
import io.tributary.topics.messages.ChunkDone;
import io.tributary.topics.messages.SnapshotRow;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TaskPriority;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * A chunk's done marker goes out only once Kafka acknowledged every row of its attempt: when a row fails, no
 * partition sees that attempt done, so the retry's rows are not dropped as late rows of a finished chunk. The fault
 * is injected into the workers' real producer at the record carrying one row ({@link RecordFaults}); that record
 * holds the other rows of its batch too.
 */
@RealServices
class ChunkDoneOrderIT {

    private static final Duration PATIENCE = Duration.ofSeconds(90);
    private static final TableId ITEMS = TableId.of("tenant_a", "items");
    private static final int ROWS = 300;

    @Test
    void anAttemptWithARowKafkaFailedIsNeverMarkedDoneAndItsRetryCompletesTheChunk(TestServices services)
        throws Exception {
        SnapshotFixture f = new SnapshotFixture(services);
        f.source.execute("CREATE SCHEMA tenant_a",
            "CREATE TABLE tenant_a.items (id integer PRIMARY KEY, name text)",
            "INSERT INTO tenant_a.items SELECT g, 'item ' || g FROM generate_series(1, " + ROWS + ") g");
        Properties kafka = services.kafkaProperties();
        kafka.putAll(RecordFaults.properties(f.topics.snapshotRows(), "\"item 17\"", "misroute"));
        kafka.put("max.block.ms", "2000");
        SnapshotWorkerConfig config = SnapshotWorkerConfig.of(kafka, f.topics, SnapshotFixture.LAYOUT,
            SnapshotFixture.endpoint(f.source), SnapshotFixture.endpoint(f.storage), 1, 2)
            .withRetry(f.config(1).retry());
        f.plan(ITEMS, TaskPriority.ACTIVE_SNAPSHOT, List.of());

        try (SnapshotWorkers workers = SnapshotWorkers.start(config)) {
            await().atMost(PATIENCE).untilAsserted(() ->
                assertThat(f.window(ITEMS).map(WindowProgress::state)).contains(WindowStatus.DONE));
            assertThat(workers.failure()).isEmpty();
        }

        List<SnapshotFixture.Published> published = f.snapshotRows();
        Map<Integer, Long> rowsPerAttempt = new HashMap<>();
        for (SnapshotFixture.Published p : published) {
            if (p.message() instanceof SnapshotRow row) {
                rowsPerAttempt.merge(row.attempt(), 1L, Long::sum);
            }
        }
        assertThat(rowsPerAttempt.getOrDefault(1, 0L)).as("rows of the first attempt Kafka took (the failed row's"
            + " batch is missing)").isLessThan(ROWS);
        for (SnapshotFixture.Published p : published) {
            if (p.message() instanceof ChunkDone done) {
                assertThat(rowsPerAttempt.getOrDefault(done.attempt(), 0L))
                    .as("rows published of attempt %d, marked done in partition %d", done.attempt(), p.partition())
                    .isEqualTo(done.rowCount());
            }
        }
        assertThat(SnapshotFixture.newestAttemptRows(published, ITEMS)).isEqualTo(f.sourceRows(ITEMS));
    }
}
