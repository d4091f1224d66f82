package io.tributary.chaos.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.postgres.PgEndpoint;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.schema.Migrations;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The auditor against hand-made storage: it must fail a checkpoint that shows half a transfer (also one superseded
 * before anything could read it), an op written at or below a checkpoint after that checkpoint was published, a
 * checkpoint that goes back, and a checkpoint it cannot audit.
 */
@RealServices
class CheckpointAuditorIT {

    private static final String BUCKET = "all_accounts[]";
    private static final long TOTAL = 200;

    @Test
    void aCheckpointShowingBothHalvesOfATransferPasses(TestServices services) throws Exception {
        Storage storage = Storage.create(services);
        storage.put(1, 1, 100);
        storage.put(2, 2, 100);
        storage.put(3, 1, 70);
        storage.put(4, 2, 130);

        List<Mismatch> mismatches = storage.audit(4);

        assertThat(mismatches).isEmpty();
    }

    @Test
    void aCheckpointInsideATransferIsAMismatch(TestServices services) throws Exception {
        Storage storage = Storage.create(services);
        storage.put(1, 1, 100);
        storage.put(2, 2, 100);
        storage.put(3, 1, 70);
        storage.put(4, 2, 130);

        List<Mismatch> mismatches = storage.audit(3);

        assertThat(mismatches).singleElement().satisfies(m -> {
            assertThat(m.check()).isEqualTo("checkpoint");
            assertThat(m.expected()).isEqualTo("2 accounts, total 200");
            assertThat(m.actual()).isEqualTo("2 accounts, total 170");
        });
    }

    @Test
    void anOpCommittedBelowAPublishedCheckpointIsAMismatch(TestServices services) throws Exception {
        Storage storage = Storage.create(services);
        storage.put(1, 1, 100);
        storage.put(3, 2, 100);
        CheckpointAuditor auditor = storage.auditor();
        auditor.start();
        storage.publish(3);
        await().atMost(Duration.ofSeconds(30)).until(() -> auditor.audited() == 1);

        storage.put(2, 1, 100);
        List<Mismatch> mismatches = auditor.finish();

        assertThat(mismatches).extracting(Mismatch::check).containsExactly("checkpoint-final");
    }

    @Test
    void aCheckpointSupersededInItsOwnTransactionIsStillAudited(TestServices services) throws Exception {
        Storage storage = Storage.create(services);
        storage.put(1, 1, 100);
        storage.put(2, 2, 100);
        storage.put(3, 1, 70);
        storage.put(4, 2, 130);
        CheckpointAuditor auditor = storage.auditor();
        auditor.start();

        storage.publish(3, 4);
        await().atMost(Duration.ofSeconds(30)).until(() -> auditor.audited() == 2);
        List<Mismatch> mismatches = auditor.finish();

        assertThat(mismatches).singleElement().satisfies(m -> {
            assertThat(m.check()).isEqualTo("checkpoint");
            assertThat(m.key()).contains("opId=3");
        });
    }

    @Test
    void aCheckpointWhoseOpIdGoesBackIsAMismatch(TestServices services) throws Exception {
        Storage storage = Storage.create(services);
        storage.put(1, 1, 100);
        storage.put(2, 2, 100);
        storage.put(3, 1, 70);
        storage.put(4, 2, 130);
        storage.put(5, 1, 100);
        storage.put(6, 2, 100);
        CheckpointAuditor auditor = storage.auditor();
        auditor.start();

        storage.publish(6);
        storage.publish(4);
        await().atMost(Duration.ofSeconds(30)).until(() -> auditor.audited() == 2);
        List<Mismatch> mismatches = auditor.finish();

        assertThat(mismatches).singleElement().satisfies(m -> {
            assertThat(m.check()).isEqualTo("checkpoint-order");
            assertThat(m.actual()).contains("opId=4");
        });
    }

    @Test
    void aCheckpointThatCannotBeAuditedIsAMismatchNotASkip(TestServices services) throws Exception {
        Storage storage = Storage.create(services);
        storage.put(1, 1, 100);
        storage.putData(2, 2, "not a row");
        CheckpointAuditor auditor = storage.auditor();
        auditor.start();

        storage.publish(2);
        await().atMost(Duration.ofSeconds(30)).until(() -> auditor.taken() == 1);
        List<Mismatch> mismatches = auditor.finish();

        assertThat(mismatches).singleElement().satisfies(m -> {
            assertThat(m.check()).isEqualTo("checkpoint-audit");
            assertThat(m.actual()).contains("Not a JSON row");
        });
    }

    /** A storage database with one group whose accounts bucket the test writes by hand. */
    private record Storage(PgEndpoint endpoint, long group) {

        static Storage create(TestServices services) throws SQLException {
            PostgresDatabase database = services.newDatabase();
            PgEndpoint endpoint = PgEndpoint.of(database.jdbcUrl(), database.user(), database.password());
            try (Connection c = endpoint.connect()) {
                Migrations.migrate(c);
                return new Storage(endpoint, SyncRulesGroups.create(c, "bucket_definitions: {}").id());
            }
        }

        void put(long opId, int account, long balance) throws SQLException {
            putData(opId, account, "{\"id\":" + account + ",\"balance\":" + balance + "}");
        }

        void putData(long opId, int account, String data) throws SQLException {
            try (Connection c = endpoint.connect(); PreparedStatement insert = c.prepareStatement(
                "INSERT INTO tributary.bucket_data (group_id, bucket, op_id, op, source_table, row_id, checksum, data)"
                    + " VALUES (?, ?, ?, 1, 'accounts', ?, 0, ?)")) {
                insert.setLong(1, group);
                insert.setString(2, BUCKET);
                insert.setLong(3, opId);
                insert.setString(4, Integer.toString(account));
                insert.setString(5, data);
                insert.executeUpdate();
            }
        }

        /** Publishes each of {@code opIds} in turn, in one transaction, at epochs and LSNs that go forward. */
        void publish(long... opIds) throws SQLException {
            try (Connection c = endpoint.connect(); PreparedStatement update = c.prepareStatement(
                "UPDATE tributary.sync_rules SET state = 'ACTIVE', checkpoint_op_id = ?,"
                    + " checkpoint_lsn = pg_lsn('0/16B3748') + 100 * coalesce(checkpoint_epoch, 0),"
                    + " checkpoint_epoch = coalesce(checkpoint_epoch, 0) + 1"
                    + " WHERE group_id = ?")) {
                c.setAutoCommit(false);
                for (long opId : opIds) {
                    update.setLong(1, opId);
                    update.setLong(2, group);
                    update.executeUpdate();
                }
                c.commit();
            }
        }

        CheckpointAuditor auditor() {
            return new CheckpointAuditor(endpoint, BUCKET, "accounts", 2, TOTAL);
        }

        /** Publishes {@code opId} and audits it. */
        List<Mismatch> audit(long opId) throws Exception {
            CheckpointAuditor auditor = auditor();
            auditor.start();
            publish(opId);
            await().atMost(Duration.ofSeconds(30)).until(() -> auditor.audited() == 1);
            return auditor.finish();
        }
    }
}
