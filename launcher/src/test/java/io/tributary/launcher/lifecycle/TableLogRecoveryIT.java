package io.tributary.launcher.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.schema.Migrations;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.writer.TableLog;
import io.tributary.writer.TableLogLostException;
import io.tributary.writer.TableLogLostException.Loss;
import java.sql.Connection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What the recovery from a lost table log does in storage: the log is rebuilt by snapshot once per new log, the
 * newest lost group is replaced once by a copy of its rules, a process that cannot snapshot refuses with the
 * command that recovers, and a group that only missed records is replaced without a snapshot.
 */
@RealServices
class TableLogRecoveryIT {

    private static final String RULES = "bucket_definitions:\n  all:\n    data:\n      - SELECT * FROM items\n";
    private static final TableLog NEW_LOG = new TableLog("cluster-2", "t.rows", "topic-2");

    @Test
    void aLostLogIsRebuiltOnceAndTheNewestLostGroupReplacedOnce(TestServices services) throws Exception {
        try (Connection c = services.newDatabase().connect()) {
            Migrations.migrate(c);
            SyncRulesGroup lost = SyncRulesGroups.create(c, RULES);
            AtomicInteger rebuilds = new AtomicInteger();
            Optional<TableLogRecovery.TableRebuild> rebuild = Optional.of(storage -> rebuilds.incrementAndGet());
            List<TableLogLostException> losses = List.of(loss(lost.id(), Loss.LOG));

            TableLogRecovery.Outcome first = TableLogRecovery.recover(c, losses, rebuild);
            TableLogRecovery.Outcome again = TableLogRecovery.recover(c, losses, rebuild);

            assertThat(first.rebuilt()).isTrue();
            assertThat(first.replacement()).map(SyncRulesGroup::content).contains(RULES);
            assertThat(again.rebuilt()).isFalse();
            assertThat(again.replacement()).isEmpty();
            assertThat(rebuilds).hasValue(1);
            assertThat(SyncRulesGroups.list(c)).hasSize(2);
        }
    }

    @Test
    void aProcessThatCannotSnapshotRefusesNamingTheRecoveryCommand(TestServices services) throws Exception {
        try (Connection c = services.newDatabase().connect()) {
            Migrations.migrate(c);
            SyncRulesGroup lost = SyncRulesGroups.create(c, RULES);

            assertThatThrownBy(() -> TableLogRecovery.recover(c, List.of(loss(lost.id(), Loss.LOG)),
                Optional.empty()))
                .isInstanceOf(TableLogRecovery.UnsafeRecoveryException.class)
                .hasMessageContaining("tributary recover --config FILE");
            assertThat(SyncRulesGroups.list(c)).hasSize(1);
        }
    }

    @Test
    void aGroupThatMissedRecordsIsReplacedWithoutASnapshot(TestServices services) throws Exception {
        try (Connection c = services.newDatabase().connect()) {
            Migrations.migrate(c);
            SyncRulesGroup behind = SyncRulesGroups.create(c, RULES);

            TableLogRecovery.Outcome outcome = TableLogRecovery.recover(c,
                List.of(loss(behind.id(), Loss.UNREAD_RECORDS)), Optional.empty());

            assertThat(outcome.rebuilt()).isFalse();
            assertThat(outcome.replacement()).map(SyncRulesGroup::id).hasValueSatisfying(id ->
                assertThat(id).isGreaterThan(behind.id()));
        }
    }

    private static TableLogLostException loss(long group, Loss loss) {
        return new TableLogLostException(group, loss, NEW_LOG, "group " + group + " lost its log");
    }
}
