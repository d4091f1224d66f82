package io.tributary.ingest.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.testing.kafka.RecordFaults;
import io.tributary.topics.codec.Partitioning;
import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.RowKey;
import io.tributary.topics.messages.TableId;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * {@code changes} is written in Kafka transactions with the source offsets: a run that dies or fails part-way
 * through a transaction leaves nothing of it that a {@code read_committed} reader sees, and the next run writes it
 * whole. Faults are injected into the real producer at one record ({@link RecordFaults}).
 */
@RealServices
class TransactionalChangesIT {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final TableId KV = TableId.of("public", "kv");
    private static final int ROWS = 20;

    @Test
    void aTransactionCutByAKillBetweenPartitionsLiesInOneEpochInEveryPartition(TestServices services)
        throws Exception {
        try (IngestFixture f = IngestFixture.create(services)) {
            createRows(f);
            int first = 1;
            int second = IntStream.rangeClosed(2, ROWS).filter(id -> partition(id) != partition(first)).findFirst()
                .orElseThrow();
            IngestConfig config = f.config("kv");
            IngestConfig halting = f.config(RecordFaults.properties(f.topics.changes(), "\"v\":7770002}", "halt"),
                "kv");
            ChangesTopic changes = f.changes();
            Process child = IngestProcess.launch(halting, "kv", IngestProcess.logFile("transactional-kill-child"));
            try {
                await().atMost(WAIT).until(() -> {
                    assertThat(child.isAlive()).as("ingest child process alive").isTrue();
                    return changes.poll().stream().anyMatch(Received::isBarrier);
                });
                f.transaction("UPDATE kv SET v = 7770001 WHERE id = " + first,
                    "UPDATE kv SET v = 7770002 WHERE id = " + second);
                assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("child halted at the second partition").isTrue();

                f.start(config.withMaxBatchSize(1));
                List<Received> all = changes.awaitUntil(WAIT, got -> coveredByABarrierEverywhere(got, 7770002));
                MergeView view = MergeView.of(all);
                assertThat(view.violations()).as("epochs holding part of a transaction").isEmpty();
                assertThat(values(view)).contains(7770001L, 7770002L);
            } finally {
                child.destroyForcibly();
            }
        }
    }

    @Test
    void aChangeRefusedByTheProducerIsWrittenByTheNextRunThoughLaterOnesOfItsPartitionWereSent(
        TestServices services) throws Exception {
        try (IngestFixture f = IngestFixture.create(services)) {
            createRows(f);
            assertThat(IntStream.rangeClosed(2, ROWS).anyMatch(id -> partition(id) == partition(1)))
                .as("a later change in the refused one's partition").isTrue();
            IngestService refusing = f.start(f.config(
                RecordFaults.properties(f.topics.changes(), "\"v\":8880001}", "refuse"), "kv"));
            String[] updates = IntStream.rangeClosed(1, ROWS)
                .mapToObj(id -> "UPDATE kv SET v = " + (8880000 + id) + " WHERE id = " + id).toArray(String[]::new);
            f.transaction(updates);
            await().atMost(WAIT).until(() -> refusing.state() == IngestState.FAILED);
            refusing.close();

            f.start(f.config("kv"));
            ChangesTopic changes = f.changes();
            List<Received> all = changes.awaitUntil(WAIT, got -> coveredByABarrierEverywhere(got, 8880001));
            MergeView view = MergeView.of(all);
            assertThat(values(view)).as("changes the merge accepts")
                .containsAll(IntStream.rangeClosed(1, ROWS).mapToObj(id -> 8880000L + id).toList());
            assertThat(view.violations()).isEmpty();
        }
    }

    private static void createRows(IngestFixture f) throws Exception {
        f.db.execute("CREATE TABLE kv (id int PRIMARY KEY, v bigint)");
        f.db.execute("INSERT INTO kv SELECT g, 0 FROM generate_series(1, " + ROWS + ") g");
    }

    private static int partition(int id) {
        return Partitioning.partitionFor(RowKey.of(KV, KeyValues.of("[" + id + "]")), IngestFixture.PARTITIONS);
    }

    /** Whether an event with value {@code v} was read, and every partition has a barrier covering its LSN. */
    private static boolean coveredByABarrierEverywhere(List<Received> got, long v) {
        return got.stream().filter(Received::isChange).map(Received::change).filter(e -> value(e) == v).findFirst()
            .map(e -> IntStream.range(0, IngestFixture.PARTITIONS).allMatch(p -> got.stream()
                .anyMatch(r -> r.partition() == p && r.isBarrier() && r.barrier().lsn().compareTo(e.lsn()) >= 0)))
            .orElse(false);
    }

    private static List<Long> values(MergeView view) {
        return view.accepted().stream().filter(e -> e.table().equals(KV)).map(TransactionalChangesIT::value).toList();
    }

    private static long value(ChangeEvent event) {
        String json = event.row().map(r -> r.json()).orElse("");
        int at = json.indexOf("\"v\":");
        return at < 0 ? -1 : Long.parseLong(json.substring(at + 4, json.indexOf('}', at)));
    }
}
