package io.tributary.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.testing.random.Seeds;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Invariant 3: kill -9 and rebalances lose and duplicate no op. */
@RealServices
class ExactlyOnceIT {

    private static final String RULES = StorageWriterIT.RULES;

    @Test
    void aWriterKilledWithSigkillMidBatchLosesAndDuplicatesNothing(TestServices services) throws Exception {
        long seed = Seeds.fromProperty("tributary.seed");
        Random random = new Random(seed);
        try (WriterHarness h = WriterHarness.create(services, 4, RULES)) {
            Workload workload = new Workload(h.log, random);
            workload.run(6_000);
            h.log.flush();
            Process victim = WriterProcess.start(h, 50);
            long committedAtKill;
            try {
                await().atMost(Duration.ofSeconds(120)).until(() -> sum(h.storage.storedOffsets()) > 500);
                await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(1))
                    .until(() -> inWriteTransaction(h));
                victim.destroyForcibly();
                assertThat(victim.waitFor(10, TimeUnit.SECONDS)).isTrue();
                committedAtKill = sum(h.storage.storedOffsets());
            } finally {
                victim.destroyForcibly();
            }
            assertThat(committedAtKill).isLessThan(sum(h.endOffsets()));
            workload.run(1_000);
            try (StorageWriter survivor = h.start(100, 2)) {
                h.awaitCaughtUp(Duration.ofSeconds(60), List.of(survivor));
            }

            List<StorageView.Op> ops = h.storage.ops();
            assertThat(StorageView.exactlyOnceViolations(ops)).as("seed %d", seed).isEmpty();
            assertThat(StorageView.reduce(ops)).as("seed %d", seed).isEqualTo(h.log.expected(RULES).buckets());
        }
    }

    @Test
    void rebalancesFromTwoToThreeToOneWriterLoseAndDuplicateNothing(TestServices services) throws Exception {
        long seed = Seeds.fromProperty("tributary.seed");
        Random random = new Random(seed);
        try (WriterHarness h = WriterHarness.create(services, 4, RULES)) {
            Workload workload = new Workload(h.log, random);
            StorageWriter first = h.start(50, 1);
            StorageWriter second = h.start(50, 1);
            List<StorageWriter> all = new ArrayList<>(List.of(first, second));
            StorageWriter third;
            try {
                workload.run(3_000);
                h.log.flush();
                awaitProgress(h, 1_000);
                third = h.start(50, 1);
                all.add(third);
                workload.run(3_000);
                h.log.flush();
                awaitProgress(h, 3_500);
                first.close();
                second.close();
                workload.run(1_000);
                h.awaitCaughtUp(Duration.ofSeconds(60), List.of(third));
                assertThat(third.failure()).isEmpty();
            } finally {
                all.forEach(StorageWriter::close);
            }

            List<StorageView.Op> ops = h.storage.ops();
            assertThat(StorageView.exactlyOnceViolations(ops)).as("seed %d", seed).isEmpty();
            assertThat(StorageView.reduce(ops)).as("seed %d", seed).isEqualTo(h.log.expected(RULES).buckets());
            assertThat(maxToken(h)).as("partitions changed hands").isGreaterThanOrEqualTo(2);
        }
    }

    @Test
    void lostStorageConnectionsAreRetriedWithoutLossOrDuplication(TestServices services) throws Exception {
        long seed = Seeds.fromProperty("tributary.seed");
        Random random = new Random(seed);
        try (WriterHarness h = WriterHarness.create(services, 4, RULES);
             StorageWriter writer = h.start(50, 2)) {
            Workload workload = new Workload(h.log, random);
            workload.run(4_000);
            h.log.flush();
            long killed = 0;
            for (int round = 0; round < 5; round++) {
                long before = sum(h.storage.storedOffsets());
                await().atMost(Duration.ofSeconds(30)).until(() -> sum(h.storage.storedOffsets()) > before);
                killed += terminateWriterConnections(h);
            }
            h.awaitCaughtUp(Duration.ofSeconds(60), List.of(writer));

            assertThat(killed).isPositive();
            assertThat(writer.stats().retries()).isPositive();
            List<StorageView.Op> ops = h.storage.ops();
            assertThat(StorageView.exactlyOnceViolations(ops)).as("seed %d", seed).isEmpty();
            assertThat(StorageView.reduce(ops)).as("seed %d", seed).isEqualTo(h.log.expected(RULES).buckets());
        }
    }

    /** Random todo and list changes with a barrier every 100 records; every row version has distinct data. */
    static final class Workload {
        private final RowsLog log;
        private final Random random;
        private int version;

        Workload(RowsLog log, Random random) {
            this.log = log;
            this.random = random;
        }

        void run(int records) {
            for (int i = 0; i < records; i++) {
                int kind = random.nextInt(10);
                if (kind < 6) {
                    String id = "t" + random.nextInt(300);
                    log.upsert("todos", id, "{\"id\":\"" + id + "\",\"title\":\"x\",\"owner\":\"u" + random.nextInt(8)
                        + "\",\"done\":" + random.nextBoolean() + ",\"v\":" + version++ + "}");
                } else if (kind < 8) {
                    String id = "l" + random.nextInt(60);
                    log.upsert("lists", id, "{\"id\":\"" + id + "\",\"title\":\"v" + version++ + "\"}");
                } else {
                    String table = random.nextBoolean() ? "todos" : "lists";
                    List<String> ids = new ArrayList<>(log.rows(table).keySet());
                    if (!ids.isEmpty()) {
                        log.delete(table, ids.get(random.nextInt(ids.size())));
                    }
                }
                if (i % 100 == 99) {
                    log.barrier();
                }
            }
            log.barrier();
        }
    }

    private static void awaitProgress(WriterHarness h, long records) {
        await().atMost(Duration.ofSeconds(30)).until(() -> sum(h.storage.storedOffsets()) >= records);
    }

    private static long sum(Map<Integer, Long> offsets) {
        return offsets.values().stream().mapToLong(Long::longValue).sum();
    }

    private static boolean inWriteTransaction(WriterHarness h) throws Exception {
        try (Connection c = h.db.connect(); PreparedStatement s = c.prepareStatement("SELECT count(*) FROM"
            + " pg_stat_activity WHERE application_name LIKE ? AND backend_xid IS NOT NULL")) {
            s.setString(1, "%storage-writer-g" + h.groupId + "-0-commit");
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1) > 0;
            }
        }
    }

    private static long terminateWriterConnections(WriterHarness h) throws Exception {
        try (Connection c = h.db.connect(); PreparedStatement s = c.prepareStatement("SELECT count(*) FILTER (WHERE"
            + " pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name LIKE ?")) {
            s.setString(1, "%storage-writer-g" + h.groupId + "-%");
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static long maxToken(WriterHarness h) throws Exception {
        try (Connection c = h.db.connect(); PreparedStatement s = c.prepareStatement(
            "SELECT min(fencing_token) FROM tributary.partition_offsets WHERE group_id = ?")) {
            s.setLong(1, h.groupId);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
