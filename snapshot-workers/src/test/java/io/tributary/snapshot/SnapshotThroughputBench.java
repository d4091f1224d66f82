package io.tributary.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.storage.progress.WindowProgress;
import io.tributary.storage.progress.WindowStatus;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TaskPriority;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Snapshot throughput on the real stack: one table of {@code bench.rows} rows (default 1M; id, text, numeric,
 * timestamptz, jsonb, ~150 bytes of JSON per row) cut into 20k-row chunks, read by {@code bench.loops} worker loops
 * (default 2) with {@code bench.reads} concurrent reads (default 2) into a 3-partition {@code snapshot-rows}.
 * Prints rows per second from the workers' start to the window's DONE in storage. Not part of the build; run with
 * {@code mvn -o -pl snapshot-workers verify -Dit.test=SnapshotThroughputBench -Dtest=none
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@RealServices
class SnapshotThroughputBench {

    @Test
    void snapshotRowsPerSecond(TestServices services) throws Exception {
        int rows = Integer.getInteger("bench.rows", 1_000_000);
        int loops = Integer.getInteger("bench.loops", 2);
        int reads = Integer.getInteger("bench.reads", 2);
        SnapshotFixture f = new SnapshotFixture(services);
        TableId table = TableId.of("bench", "orders");
        f.source.execute("CREATE SCHEMA bench",
            "CREATE TABLE bench.orders (id bigint PRIMARY KEY, customer text, amount numeric(12,2),"
                + " created timestamptz, attrs jsonb)",
            "INSERT INTO bench.orders SELECT g, 'customer-' || (g % 5000), (g % 100000) / 100.0,"
                + " timestamptz '2024-01-01 00:00:00+00' + g * interval '1 second',"
                + " jsonb_build_object('channel', 'web', 'items', g % 7, 'note', md5(g::text))"
                + " FROM generate_series(1, " + rows + ") g",
            "ANALYZE bench.orders");
        List<String> boundaries = new ArrayList<>();
        for (int b = 20_000; b < rows; b += 20_000) {
            boundaries.add("[" + (b + 1) + "]");
        }
        f.plan(table, TaskPriority.ACTIVE_SNAPSHOT, boundaries);
        SnapshotWorkerConfig config = SnapshotWorkerConfig.of(services.kafkaProperties(), f.topics,
            SnapshotFixture.LAYOUT, SnapshotFixture.endpoint(f.source), SnapshotFixture.endpoint(f.storage), loops,
            reads);

        long start = System.nanoTime();
        try (SnapshotWorkers workers = SnapshotWorkers.start(config)) {
            await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofMillis(100)).untilAsserted(() ->
                assertThat(f.window(table).map(WindowProgress::state)).contains(WindowStatus.DONE));
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        assertThat(f.window(table).orElseThrow().rowsDone()).isEqualTo(rows);
        System.out.printf("SNAPSHOT BENCH: %d rows, %d chunks, %d loops, %d reads: %.1f s, %.0f rows/s%n", rows,
            boundaries.size() + 1, loops, reads, seconds, rows / seconds);
    }
}
