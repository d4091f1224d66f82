package io.tributary.launcher.badinput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.launcher.badinput.BadInputPipeline.Background;
import io.tributary.launcher.badinput.BadInputPipeline.Result;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table created after deploy under a wildcard rule, whose primary key the live group's data query cannot use as
 * {@code id}, through the real pipeline and the real rules matcher: {@code run} holds the group's checkpoints with an
 * error naming the group, the query, the table and the fix, and {@code tributary resnapshot} of the table once its
 * key fits releases them, its rows under the old key gone.
 */
@RealServices
class LaterTableRowIdIT {

    private static final String RULES = "bucket_definitions:\n  orders:\n    data:\n"
        + "      - SELECT * FROM \"tenant_%\".orders\n";
    private static final Duration PIPELINE_STEP = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    @Test
    void aTableCreatedAfterDeployWhoseKeyTheIdCannotUseHoldsCheckpointsUntilItIsResnapshottedWithAKeyThatFits(
        TestServices services) throws Exception {
        BadInputPipeline pipeline = BadInputPipeline.create(services, dir, RULES);
        pipeline.source.execute("CREATE SCHEMA tenant_a", "CREATE SCHEMA tenant_b",
            "CREATE TABLE tenant_a.orders (id bigint PRIMARY KEY, amount integer)",
            "INSERT INTO tenant_a.orders SELECT i, i FROM generate_series(1, 20) i");
        Result deployed = pipeline.runUntilCaughtUp();
        assertThat(deployed.code()).as(deployed.out()).isZero();

        // ids apart from tenant_a's: both tables are "orders" in one bucket, where a row is (table name, id)
        pipeline.source.execute(
            "CREATE TABLE tenant_b.orders (id bigint, line integer, amount integer, PRIMARY KEY (id, line))",
            "INSERT INTO tenant_b.orders SELECT i, 1, i FROM generate_series(101, 130) i",
            "UPDATE tenant_a.orders SET amount = 1000 WHERE id = 1");
        try (Background run = pipeline.runInBackground()) {
            long readyEpoch = awaitReadyInEveryPartition(pipeline, run);
            awaitSealedInEveryPartition(pipeline, run, readyEpoch + 2);
            assertThat(checkpointEpoch(pipeline))
                .as("the group's checkpoint epoch, two epochs after \"tenant_b\".\"orders\" (a key its id cannot"
                    + " use) was ready in every partition at epoch %d", readyEpoch)
                .isLessThanOrEqualTo(readyEpoch);
            assertThat(conflict(pipeline)).hasValueSatisfying(problem -> assertThat(problem).contains(
                "Sync rules group 1 reads \"tenant_b\".\"orders\"", "orders.data[0] reads tenant_b.orders",
                "(id, line) has 2 columns", "single-column primary key",
                "tributary resnapshot --config FILE tenant_b orders").containsPattern("4:\\d+: orders\\.data"));
        }

        Result refused = pipeline.resnapshot("tenant_b", "orders");
        assertThat(refused.code()).as(refused.out()).isNotZero();
        assertThat(refused.out()).contains("tenant_b", "orders");

        // rows under the old key (id, line) are in the table log; after the key change the source deletes one
        // under its new key (id), which no record of the log carries: the resnapshot must remove it
        pipeline.source.execute("ALTER TABLE tenant_b.orders DROP CONSTRAINT orders_pkey",
            "ALTER TABLE tenant_b.orders ADD PRIMARY KEY (id)", "DELETE FROM tenant_b.orders WHERE id = 130");
        Result resnapshot = pipeline.resnapshot("tenant_b", "orders");
        assertThat(resnapshot.code()).as(resnapshot.out()).isZero();
        Result caughtUp = pipeline.runUntilCaughtUp();
        assertThat(caughtUp.code()).as(caughtUp.out()).isZero();
        assertThat(conflict(pipeline)).isEmpty();
        pipeline.assertServes(pipeline.expected(RULES));
    }

    /** Waits for tenant_b's snapshot window to be ready in every partition; returns its newest ready epoch. */
    private static long awaitReadyInEveryPartition(BadInputPipeline pipeline, Background run)
        throws SQLException {
        String readiness = "SELECT count(*), max(ready_after_epoch) FROM tributary.table_readiness"
            + " WHERE group_id = 1 AND table_schema = 'tenant_b' AND table_name = 'orders'";
        await().atMost(PIPELINE_STEP).until(() -> run.exited()
            || queryLong(pipeline, readiness, 1) == BadInputPipeline.PARTITIONS);
        assertThat(run.exited()).as(run.out().toString()).isFalse();
        return queryLong(pipeline, readiness, 2);
    }

    private static void awaitSealedInEveryPartition(BadInputPipeline pipeline, Background run, long epoch) {
        String sealed = "SELECT count(*) FROM (SELECT partition FROM tributary.sealed_epochs WHERE group_id = 1"
            + " GROUP BY partition HAVING max(epoch) >= " + epoch + ") p";
        await().atMost(PIPELINE_STEP).until(() -> run.exited()
            || queryLong(pipeline, sealed, 1) == BadInputPipeline.PARTITIONS);
        assertThat(run.exited()).as(run.out().toString()).isFalse();
    }

    private static long checkpointEpoch(BadInputPipeline pipeline) throws SQLException {
        return queryLong(pipeline, "SELECT coalesce(checkpoint_epoch, -1) FROM tributary.sync_rules"
            + " WHERE group_id = 1", 1);
    }

    private static Optional<String> conflict(BadInputPipeline pipeline) throws SQLException {
        try (Connection c = pipeline.storage.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT problem FROM tributary.row_id_conflicts WHERE group_id = 1")) {
            return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
        }
    }

    private static long queryLong(BadInputPipeline pipeline, String sql, int column) throws SQLException {
        try (Connection c = pipeline.storage.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(column);
        }
    }
}
