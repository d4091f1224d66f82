package io.tributary.chaos.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.chaos.workload.SourceHistory;
import io.tributary.postgres.PgEndpoint;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.schema.Migrations;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The auditor against a real source (with its row history and commit slot) and hand-made storage: a checkpoint
 * must be the source at its LSN, rules applied, in every bucket, row and value, with every op's checksum right;
 * it must also go forward, and no op may be committed at or below it after it was published.
 */
@RealServices
class CheckpointAuditorIT {

    private static final String RULES = """
        bucket_definitions:
          all_accounts:
            data:
              - SELECT id, owner, balance FROM accounts
          by_owner:
            parameters: SELECT request.user_id() AS owner
            data:
              - SELECT id, owner, body, created FROM notes WHERE owner = bucket.owner
          tenant_orders:
            parameters: SELECT request.user_id() AS owner
            data:
              - SELECT * FROM "tenant_%".orders WHERE owner = bucket.owner
        """;
    private static final String ACCOUNTS = "all_accounts[]";
    private static final String NOTES = "by_owner[\"u1\"]";
    private static final String TENANT = "tenant_orders[\"u1\"]";
    private static final String NOTE = "{\"id\":\"n1\",\"owner\":\"u1\",\"body\":\"%s\",\"created\":"
        + "\"2024-01-02 01:04:05.5Z\"}";
    private static final long TOTAL = 200;

    @Test
    void aCheckpointThatIsTheSourceAtItsLsnPasses(TestServices services) throws Exception {
        try (Audited a = Audited.create(services)) {
            String lsn = a.initialRows();
            a.putInitialRows();

            assertThat(a.audit(3, lsn)).isEmpty();
        }
    }

    @Test
    void aRowVersionCommittedAfterTheCheckpointsLsnIsAMismatch(TestServices services) throws Exception {
        try (Audited a = Audited.create(services)) {
            String lsn = a.initialRows();
            a.source("UPDATE notes SET body = 'later' WHERE id = 'n1'");
            a.putInitialRows();
            a.put(4, NOTES, "notes", "n1", NOTE.formatted("later"));

            List<Mismatch> mismatches = a.audit(4, lsn);

            assertThat(mismatches).singleElement().satisfies(m -> {
                assertThat(m.check()).isEqualTo("checkpoint-rows");
                assertThat(m.key()).endsWith(NOTES + "/notes/n1");
                assertThat(m.expected()).contains("\"body\":\"hello\"");
                assertThat(m.actual()).contains("\"body\":\"later\"");
            });
        }
    }

    @Test
    void aRowMissingFromACheckpointIsAMismatch(TestServices services) throws Exception {
        try (Audited a = Audited.create(services)) {
            String lsn = a.initialRows();
            a.put(1, ACCOUNTS, "accounts", "1", account(1, 100));
            a.put(2, ACCOUNTS, "accounts", "2", account(2, 100));

            List<Mismatch> mismatches = a.audit(2, lsn);

            assertThat(mismatches).singleElement().satisfies(m -> {
                assertThat(m.check()).isEqualTo("checkpoint-rows");
                assertThat(m.key()).endsWith(NOTES + "/notes/n1");
                assertThat(m.actual()).isEqualTo(Mismatch.ABSENT);
            });
        }
    }

    @Test
    void aValueTheSourceNeverHadIsAMismatch(TestServices services) throws Exception {
        try (Audited a = Audited.create(services)) {
            String lsn = a.initialRows();
            a.put(1, ACCOUNTS, "accounts", "1", account(1, 100));
            a.put(2, ACCOUNTS, "accounts", "2", account(2, 100));
            a.put(3, NOTES, "notes", "n1", NOTE.formatted("hello").replace("01:04:05.5Z", "01:04:05Z"));

            assertThat(a.audit(3, lsn)).extracting(Mismatch::check).containsExactly("checkpoint-rows");
        }
    }

    @Test
    void aTableCreatedWhileTheGroupRunsIsAbsentOrWholeNeverPart(TestServices services) throws Exception {
        try (Audited a = Audited.create(services)) {
            a.initialRows();
            a.source("CREATE SCHEMA tenant_1", "CREATE TABLE tenant_1.orders (id text PRIMARY KEY,"
                + " owner text NOT NULL, qty integer, note text)");
            try (Connection c = a.source().connect()) {
                SourceHistory.record(c, "tenant_1.orders");
            }
            String lsn = a.source("INSERT INTO tenant_1.orders VALUES ('t1-1', 'u1', 1, 'a'), ('t1-2', 'u1', 2, 'b')");
            a.putInitialRows();
            CheckpointAuditor auditor = a.auditor();
            auditor.start();
            a.publish(3, lsn);
            await().atMost(Duration.ofSeconds(30)).until(() -> auditor.audited() == 1);
            a.put(4, TENANT, "orders", "t1-1", "{\"id\":\"t1-1\",\"owner\":\"u1\",\"qty\":1,\"note\":\"a\"}");
            a.publish(4, lsn);
            await().atMost(Duration.ofSeconds(30)).until(() -> auditor.audited() == 2);

            List<Mismatch> mismatches = auditor.finish();

            assertThat(mismatches).singleElement().satisfies(m -> {
                assertThat(m.check()).isEqualTo("checkpoint-rows");
                assertThat(m.key()).contains("opId=4").endsWith(TENANT + "/orders/t1-2");
                assertThat(m.actual()).isEqualTo(Mismatch.ABSENT);
            });
        }
    }

    @Test
    void anOpWhoseChecksumIsNotItsOwnIsAMismatch(TestServices services) throws Exception {
        try (Audited a = Audited.create(services)) {
            String lsn = a.initialRows();
            a.putInitialRows();
            a.execute("UPDATE tributary.bucket_data SET checksum = checksum + 1 WHERE op_id = 2");

            List<Mismatch> mismatches = a.audit(3, lsn);

            assertThat(mismatches).singleElement().satisfies(m -> {
                assertThat(m.check()).isEqualTo("checkpoint-ops");
                assertThat(m.key()).contains("op 2 ", "checksum");
            });
        }
    }

    @Test
    void aCheckpointInsideATransferIsAMismatch(TestServices services) throws Exception {
        try (Audited a = Audited.create(services)) {
            a.initialRows();
            String lsn = a.source("UPDATE accounts SET balance = 70 WHERE id = 1",
                "UPDATE accounts SET balance = 130 WHERE id = 2");
            a.putInitialRows();
            a.put(4, ACCOUNTS, "accounts", "1", account(1, 70));
            a.put(5, ACCOUNTS, "accounts", "2", account(2, 130));

            List<Mismatch> mismatches = a.audit(4, lsn);

            assertThat(mismatches).extracting(Mismatch::check).containsExactlyInAnyOrder("checkpoint-rows",
                "checkpoint");
            assertThat(mismatches).filteredOn(m -> m.check().equals("checkpoint")).singleElement()
                .satisfies(m -> assertThat(m.actual()).isEqualTo("2 accounts, total 170"));
        }
    }

    @Test
    void anOpCommittedBelowAPublishedCheckpointIsAMismatch(TestServices services) throws Exception {
        try (Audited a = Audited.create(services)) {
            String lsn = a.initialRows();
            a.put(1, ACCOUNTS, "accounts", "1", account(1, 100));
            a.put(3, ACCOUNTS, "accounts", "2", account(2, 100));
            a.put(4, NOTES, "notes", "n1", NOTE.formatted("hello"));
            CheckpointAuditor auditor = a.auditor();
            auditor.start();
            a.publish(4, lsn);
            await().atMost(Duration.ofSeconds(30)).until(() -> auditor.audited() == 1);

            a.put(2, ACCOUNTS, "accounts", "1", account(1, 100));
            List<Mismatch> mismatches = auditor.finish();

            assertThat(mismatches).extracting(Mismatch::check).containsExactly("checkpoint-final");
        }
    }

    @Test
    void aCheckpointSupersededInItsOwnTransactionIsStillAudited(TestServices services) throws Exception {
        try (Audited a = Audited.create(services)) {
            String first = a.initialRows();
            String second = a.source("UPDATE notes SET body = 'later' WHERE id = 'n1'");
            a.putInitialRows();
            a.put(4, NOTES, "notes", "n1", NOTE.formatted("later"));
            CheckpointAuditor auditor = a.auditor();
            auditor.start();

            // published in one transaction: the first at the second's LSN, which it does not reach yet
            a.publish(List.of(3L, 4L), List.of(second, second));
            await().atMost(Duration.ofSeconds(30)).until(() -> auditor.audited() == 2);
            List<Mismatch> mismatches = auditor.finish();

            assertThat(first).isNotEqualTo(second);
            assertThat(mismatches).singleElement().satisfies(m -> {
                assertThat(m.check()).isEqualTo("checkpoint-rows");
                assertThat(m.key()).contains("opId=3");
            });
        }
    }

    @Test
    void aCheckpointWhoseOpIdGoesBackIsAMismatch(TestServices services) throws Exception {
        try (Audited a = Audited.create(services)) {
            String lsn = a.initialRows();
            a.putInitialRows();
            a.put(4, ACCOUNTS, "accounts", "1", account(1, 100));
            CheckpointAuditor auditor = a.auditor();
            auditor.start();

            a.publish(List.of(4L), List.of(lsn));
            a.publish(List.of(3L), List.of(lsn));
            await().atMost(Duration.ofSeconds(30)).until(() -> auditor.audited() == 2);
            List<Mismatch> mismatches = auditor.finish();

            assertThat(mismatches).singleElement().satisfies(m -> {
                assertThat(m.check()).isEqualTo("checkpoint-order");
                assertThat(m.actual()).contains("opId=3");
            });
        }
    }

    @Test
    void aCheckpointThatCannotBeAuditedIsAMismatchNotASkip(TestServices services) throws Exception {
        try (Audited a = Audited.create(services)) {
            String lsn = a.initialRows();
            a.put(1, ACCOUNTS, "accounts", "1", account(1, 100));
            a.put(2, ACCOUNTS, "accounts", "2", "not a row");
            CheckpointAuditor auditor = a.auditor();
            auditor.start();

            a.publish(2, lsn);
            await().atMost(Duration.ofSeconds(30)).until(() -> auditor.taken() == 1);
            List<Mismatch> mismatches = auditor.finish();

            assertThat(mismatches).singleElement().satisfies(m -> {
                assertThat(m.check()).isEqualTo("checkpoint-audit");
                assertThat(m.actual()).contains("Not a JSON row");
            });
        }
    }

    private static String account(int id, long balance) {
        return "{\"id\":" + id + ",\"owner\":\"u1\",\"balance\":" + balance + "}";
    }

    /** A source with two audited tables and its commit slot, and a storage database with one group. */
    private record Audited(PgEndpoint source, PgEndpoint storage, String slot, long group) implements AutoCloseable {

        static Audited create(TestServices services) throws SQLException {
            PgEndpoint source = endpoint(services.newDatabase());
            PgEndpoint storage = endpoint(services.newDatabase());
            String slot = services.uniqueName("audit").replace('-', '_').toLowerCase();
            try (Connection c = source.connect(); Statement s = c.createStatement()) {
                CommitLog.create(c, slot);
                SourceHistory.install(c);
                s.execute("CREATE TABLE accounts (id integer PRIMARY KEY, owner text NOT NULL, balance bigint)");
                s.execute("CREATE TABLE notes (id text PRIMARY KEY, owner text NOT NULL, body text,"
                    + " created timestamptz)");
                SourceHistory.record(c, "accounts");
                SourceHistory.record(c, "notes");
            }
            try (Connection c = storage.connect()) {
                Migrations.migrate(c);
                return new Audited(source, storage, slot, SyncRulesGroups.create(c, RULES).id());
            }
        }

        private static PgEndpoint endpoint(PostgresDatabase database) {
            return PgEndpoint.of(database.jdbcUrl(), database.user(), database.password());
        }

        /** Two accounts of 100 and one note, in one transaction; returns the LSN right after its commit. */
        String initialRows() throws SQLException {
            return source("INSERT INTO accounts VALUES (1, 'u1', 100), (2, 'u1', 100)",
                "INSERT INTO notes VALUES ('n1', 'u1', 'hello', '2024-01-02 02:04:05.5+01')");
        }

        /** The ops of {@link #initialRows}, with op ids 1 to 3. */
        void putInitialRows() throws SQLException {
            put(1, ACCOUNTS, "accounts", "1", account(1, 100));
            put(2, ACCOUNTS, "accounts", "2", account(2, 100));
            put(3, NOTES, "notes", "n1", NOTE.formatted("hello"));
        }

        /** Runs {@code statements} in one source transaction; returns the WAL position right after its commit. */
        String source(String... statements) throws SQLException {
            try (Connection c = source.connect(); Statement s = c.createStatement()) {
                c.setAutoCommit(false);
                for (String statement : statements) {
                    s.execute(statement);
                }
                c.commit();
                try (ResultSet rs = s.executeQuery("SELECT pg_current_wal_lsn()::text")) {
                    rs.next();
                    return rs.getString(1);
                }
            }
        }

        void execute(String sql) throws SQLException {
            try (Connection c = storage.connect(); Statement s = c.createStatement()) {
                s.execute(sql);
            }
        }

        /** A PUT with the checksum of its fields. */
        void put(long opId, String bucket, String table, String id, String data) throws SQLException {
            try (Connection c = storage.connect(); PreparedStatement insert = c.prepareStatement(
                "INSERT INTO tributary.bucket_data (group_id, bucket, op_id, op, source_table, row_id, checksum, data)"
                    + " VALUES (?, ?, ?, 1, ?, ?, ?, ?)")) {
                insert.setLong(1, group);
                insert.setString(2, bucket);
                insert.setLong(3, opId);
                insert.setString(4, table);
                insert.setString(5, id);
                insert.setLong(6, OpChecksum.of(table, id, data));
                insert.setString(7, data);
                insert.executeUpdate();
            }
        }

        void publish(long opId, String lsn) throws SQLException {
            publish(List.of(opId), List.of(lsn));
        }

        /** Publishes each checkpoint in turn, in one transaction, at epochs that go forward. */
        void publish(List<Long> opIds, List<String> lsns) throws SQLException {
            try (Connection c = storage.connect(); PreparedStatement update = c.prepareStatement(
                "UPDATE tributary.sync_rules SET state = 'ACTIVE', checkpoint_op_id = ?, checkpoint_lsn = ?::pg_lsn,"
                    + " checkpoint_epoch = coalesce(checkpoint_epoch, 0) + 1 WHERE group_id = ?")) {
                c.setAutoCommit(false);
                for (int i = 0; i < opIds.size(); i++) {
                    update.setLong(1, opIds.get(i));
                    update.setString(2, lsns.get(i));
                    update.setLong(3, group);
                    update.executeUpdate();
                }
                c.commit();
            }
        }

        CheckpointAuditor auditor() {
            return new CheckpointAuditor(storage, source, slot, ACCOUNTS, "accounts", 2, TOTAL);
        }

        /** Publishes {@code opId} at {@code lsn} and audits it. */
        List<Mismatch> audit(long opId, String lsn) throws Exception {
            CheckpointAuditor auditor = auditor();
            auditor.start();
            publish(opId, lsn);
            await().atMost(Duration.ofSeconds(30)).until(() -> auditor.audited() == 1);
            return auditor.finish();
        }

        @Override
        public void close() throws SQLException {
            try (Connection c = source.connect()) {
                CommitLog.drop(c, slot);
            }
        }
    }
}
