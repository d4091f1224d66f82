package io.tributary.ingest.capture;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.ChangeOp;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TableTruncate;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

@RealServices
class ChangeCaptureIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void insertUpdateDeleteArriveInOrderWithCanonicalRowsAndKeys(TestServices services) throws Exception {
        try (IngestFixture f = IngestFixture.create(services)) {
            f.db.execute("CREATE TABLE items (id int PRIMARY KEY, name text, qty numeric)");
            f.start(f.config("items"));
            ChangesTopic changes = f.changes();

            f.db.execute("INSERT INTO items VALUES (1, 'a', 1.50)", "UPDATE items SET qty = 2 WHERE id = 1",
                "DELETE FROM items WHERE id = 1");

            List<ChangeEvent> events = changes.awaitUntil(WAIT, all -> changeEvents(all).size() == 3).stream()
                .filter(Received::isChange).map(Received::change).collect(Collectors.toList());
            assertThat(events).extracting(ChangeEvent::op)
                .containsExactly(ChangeOp.INSERT, ChangeOp.UPDATE, ChangeOp.DELETE);
            assertThat(events).extracting(e -> e.pk().json()).containsOnly("[1]");
            assertThat(events).extracting(ChangeEvent::table).containsOnly(TableId.of("public", "items"));
            assertThat(events.get(0).row().orElseThrow().json())
                .isEqualTo("{\"id\":1,\"name\":\"a\",\"qty\":\"1.50\"}");
            assertThat(events.get(1).row().orElseThrow().json()).isEqualTo("{\"id\":1,\"name\":\"a\",\"qty\":\"2\"}");
            assertThat(events.get(2).row()).isEmpty();
            assertThat(events.get(0).lsn()).isLessThan(events.get(1).lsn());
            assertThat(events.get(1).lsn()).isLessThan(events.get(2).lsn());
        }
    }

    @Test
    void aMultiRowTransactionSharesOneCommitLsnAndNumbersSeqInWalOrder(TestServices services) throws Exception {
        try (IngestFixture f = IngestFixture.create(services)) {
            f.db.execute("CREATE TABLE items (id int PRIMARY KEY, v int)");
            f.start(f.config("items"));
            ChangesTopic changes = f.changes();

            f.transaction("INSERT INTO items VALUES (5, 0)", "INSERT INTO items VALUES (3, 0)",
                "INSERT INTO items VALUES (9, 0), (1, 0)", "UPDATE items SET v = 1 WHERE id = 3",
                "DELETE FROM items WHERE id = 9");

            List<ChangeEvent> events = changeEvents(changes.awaitUntil(WAIT, all -> changeEvents(all).size() == 6));
            events.sort(Comparator.comparingLong(ChangeEvent::seq));
            assertThat(events).extracting(ChangeEvent::seq).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
            assertThat(events).extracting(e -> e.pk().json())
                .containsExactly("[5]", "[3]", "[9]", "[1]", "[3]", "[9]");
            assertThat(events).extracting(ChangeEvent::lsn).containsOnly(events.get(0).lsn());
            assertThat(events).extracting(ChangeEvent::txId).containsOnly(events.get(0).txId());
        }
    }

    @Test
    void aTransactionsChangesTravelSeveralToARecordInWalOrderPerPartition(TestServices services) throws Exception {
        try (IngestFixture f = IngestFixture.create(services)) {
            f.db.execute("CREATE TABLE items (id int PRIMARY KEY, v int)");
            f.start(f.config("items"));
            ChangesTopic changes = f.changes();

            f.transaction("INSERT INTO items SELECT g, 0 FROM generate_series(1, 400) g",
                "UPDATE items SET v = 1 WHERE id % 2 = 0");

            List<Received> all = changes.awaitUntil(WAIT, received -> changeEvents(received).size() == 600);
            assertThat(changes.records()).as("records of changes holding 600 change events").isLessThan(100);
            for (int partition : all.stream().map(Received::partition).distinct().collect(Collectors.toList())) {
                List<Long> seqs = changeEvents(ChangesTopic.partition(all, partition)).stream()
                    .map(ChangeEvent::seq).collect(Collectors.toList());
                assertThat(seqs).as("seq in partition " + partition).isSorted();
            }
            assertThat(changeEvents(all)).extracting(ChangeEvent::seq).doesNotHaveDuplicates();
        }
    }

    @Test
    void debeziumsPerEventStreamingMetricsStayOffWhileChangesFlow(TestServices services) throws Exception {
        try (IngestFixture f = IngestFixture.create(services)) {
            f.db.execute("CREATE TABLE items (id int PRIMARY KEY, v int)");
            f.start(f.config("items"));
            ChangesTopic changes = f.changes();
            f.db.execute("INSERT INTO items VALUES (0, 0)");
            changes.awaitUntil(WAIT, received -> changeEvents(received).size() == 1);
            long seenBefore = streamingEventsSeen();

            f.transaction("INSERT INTO items SELECT g, 0 FROM generate_series(1, 300) g",
                "UPDATE items SET v = 1 WHERE id > 0");

            changes.awaitUntil(WAIT, received -> changeEvents(received).size() == 601);
            assertThat(streamingEventsSeen()).as("events Debezium's streaming metrics counted")
                .isEqualTo(seenBefore);
        }
    }

    @Test
    void interleavedTransactionsCarryTheirCommitLsnsInCommitOrder(TestServices services) throws Exception {
        try (IngestFixture f = IngestFixture.create(services)) {
            f.db.execute("CREATE TABLE items (id int PRIMARY KEY, v text)");
            f.start(f.config("items"));
            ChangesTopic changes = f.changes();

            try (Connection a = f.db.connect(); Connection b = f.db.connect();
                 Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
                a.setAutoCommit(false);
                b.setAutoCommit(false);
                sa.execute("INSERT INTO items VALUES (1, 'a')");
                sb.execute("INSERT INTO items VALUES (2, 'b')");
                sa.execute("INSERT INTO items VALUES (3, 'a')");
                b.commit();
                a.commit();
            }

            List<ChangeEvent> events = changeEvents(changes.awaitUntil(WAIT, all -> changeEvents(all).size() == 3));
            ChangeEvent first = byKey(events, "[1]");
            ChangeEvent second = byKey(events, "[2]");
            ChangeEvent third = byKey(events, "[3]");
            assertThat(first.lsn()).isEqualTo(third.lsn());
            assertThat(second.lsn()).isLessThan(first.lsn());
            assertThat(first.txId()).isLessThan(second.txId());
            assertThat(List.of(first.seq(), third.seq(), second.seq())).containsExactly(0L, 1L, 0L);
        }
    }

    @Test
    void txIdIsTheSixtyFourBitTransactionId(TestServices services) throws Exception {
        try (IngestFixture f = IngestFixture.create(services)) {
            f.db.execute("CREATE TABLE items (id int PRIMARY KEY)");
            f.start(f.config("items"));
            ChangesTopic changes = f.changes();
            long xid;
            try (Connection c = f.db.connect(); Statement s = c.createStatement()) {
                c.setAutoCommit(false);
                s.execute("INSERT INTO items VALUES (1)");
                try (ResultSet rs = s.executeQuery("SELECT pg_current_xact_id()::text::bigint")) {
                    rs.next();
                    xid = rs.getLong(1);
                }
                c.commit();
            }

            List<ChangeEvent> events = changeEvents(changes.awaitUntil(WAIT, all -> changeEvents(all).size() == 1));
            assertThat(events.get(0).txId()).isEqualTo(xid);
        }
    }

    @Test
    void primaryKeyChangeBecomesDeleteThenInsertInOneTransaction(TestServices services) throws Exception {
        try (IngestFixture f = IngestFixture.create(services)) {
            f.db.execute("CREATE TABLE items (id int PRIMARY KEY, v text)", "INSERT INTO items VALUES (1, 'x')");
            f.start(f.config("items"));
            ChangesTopic changes = f.changes();

            f.db.execute("UPDATE items SET id = 2 WHERE id = 1");

            List<ChangeEvent> events = changeEvents(changes.awaitUntil(WAIT, all -> changeEvents(all).size() == 2));
            events.sort(Comparator.comparingLong(ChangeEvent::seq));
            assertThat(events).extracting(ChangeEvent::op).containsExactly(ChangeOp.DELETE, ChangeOp.INSERT);
            assertThat(events).extracting(e -> e.pk().json()).containsExactly("[1]", "[2]");
            assertThat(events.get(1).row().orElseThrow().json()).isEqualTo("{\"id\":2,\"v\":\"x\"}");
            assertThat(events.get(0).lsn()).isEqualTo(events.get(1).lsn());
        }
    }

    @Test
    void truncateReachesEveryPartitionAfterTheEarlierChanges(TestServices services) throws Exception {
        try (IngestFixture f = IngestFixture.create(services)) {
            f.db.execute("CREATE TABLE items (id int PRIMARY KEY)");
            f.start(f.config("items"));
            ChangesTopic changes = f.changes();

            f.db.execute("INSERT INTO items SELECT generate_series(1, 20)", "TRUNCATE items");

            List<Received> all = changes.awaitUntil(WAIT,
                got -> got.stream().filter(r -> r.message() instanceof TableTruncate).count()
                    == IngestFixture.PARTITIONS);
            for (int p = 0; p < IngestFixture.PARTITIONS; p++) {
                List<Received> partition = ChangesTopic.partition(all, p);
                Optional<Received> truncate = partition.stream()
                    .filter(r -> r.message() instanceof TableTruncate).findFirst();
                assertThat(truncate).isPresent();
                TableTruncate message = (TableTruncate) truncate.get().message();
                assertThat(message.table()).isEqualTo(TableId.of("public", "items"));
                assertThat(partition.stream().filter(Received::isChange)
                    .allMatch(r -> r.offset() < truncate.get().offset()
                        && r.change().lsn().isBefore(message.lsn()))).isTrue();
            }
        }
    }

    /** The change events the running engine's streaming metrics have counted (Debezium's own MBean). */
    private static long streamingEventsSeen() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        Set<ObjectName> names = server.queryNames(
            new ObjectName("debezium.postgres:type=connector-metrics,context=streaming,*"), null);
        assertThat(names).as("Debezium's streaming metrics MBeans").hasSize(1);
        return (Long) server.getAttribute(names.iterator().next(), "TotalNumberOfEventsSeen");
    }

    static List<ChangeEvent> changeEvents(List<Received> all) {
        return all.stream().filter(Received::isChange).map(Received::change).collect(Collectors.toList());
    }

    private static ChangeEvent byKey(List<ChangeEvent> events, String pk) {
        return events.stream().filter(e -> e.pk().json().equals(pk)).findFirst().orElseThrow();
    }
}
