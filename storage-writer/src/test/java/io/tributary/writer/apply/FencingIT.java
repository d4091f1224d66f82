package io.tributary.writer.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.syncrules.BucketRow;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.writer.GroupsInStorage;
import io.tributary.writer.consume.PartitionClaim;
import io.tributary.writer.consume.PartitionClaims;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

@RealServices
class FencingIT {

    private static final BucketRow ROW = new BucketRow("global[]", "todos", "t1", "{\"id\":\"t1\"}");

    @Test
    void aFencedZombieCannotCommit(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        long group = GroupsInStorage.one(db);
        try (Connection zombie = open(db); Connection owner = open(db)) {
            PartitionClaim old = PartitionClaims.claim(zombie, group, 0);
            PartitionClaim current = PartitionClaims.claim(owner, group, 0);
            BatchApplier applier = new BatchApplier(group);

            assertThatThrownBy(() -> applier.apply(zombie, ClaimedTargets.of(group, old), batch(0)))
                .isInstanceOf(FencedException.class);
            assertThat(count(db, "tributary.bucket_data")).isZero();
            assertThat(count(db, "tributary.current_data")).isZero();

            ApplyResult result = applier.apply(owner, ClaimedTargets.of(group, current), batch(0));
            assertThat(result.ops()).isEqualTo(1);
            assertThat(count(db, "tributary.bucket_data")).isEqualTo(1);
            assertThat(current.fencingToken()).isGreaterThan(old.fencingToken());
        }
    }

    @Test
    void aClaimWaitsForTheZombiesOpenTransactionAndResumesAfterIt(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        long group = GroupsInStorage.one(db);
        try (Connection zombie = open(db); Connection owner = open(db)) {
            PartitionClaim old = PartitionClaims.claim(zombie, group, 0);
            try (Statement s = zombie.createStatement()) {
                s.executeUpdate("UPDATE tributary.partition_offsets SET next_offset = 1 WHERE group_id = " + group
                    + " AND partition = 0 AND fencing_token = " + old.fencingToken());
            }
            CompletableFuture<PartitionClaim> claim = CompletableFuture.supplyAsync(() -> {
                try {
                    return PartitionClaims.claim(owner, group, 0);
                } catch (java.sql.SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(claim).isNotDone();
            zombie.commit();

            assertThat(claim.get(10, TimeUnit.SECONDS).nextOffset()).isEqualTo(1);
        }
    }

    @Test
    void retryingABatchWhoseCommitAcknowledgementWasLostAppliesItOnce(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        long group = GroupsInStorage.one(db);
        try (Connection c = open(db)) {
            PartitionClaim claim = PartitionClaims.claim(c, group, 0);
            BatchApplier applier = new BatchApplier(group);
            PreparedBatch batch = batch(0);

            ApplyResult first = applier.apply(c, ClaimedTargets.of(group, claim), batch);
            ApplyResult retry = applier.apply(c, ClaimedTargets.of(group, claim), batch);

            assertThat(first.ops()).isEqualTo(1);
            assertThat(retry.ops()).isZero();
            assertThat(retry.maxOpId()).isEqualTo(first.maxOpId());
            assertThat(retry.nextOffset()).isEqualTo(batch.nextOffset());
            assertThat(count(db, "tributary.bucket_data")).isEqualTo(1);
        }
    }

    private static PreparedBatch batch(long offset) {
        BatchBuilder builder = new BatchBuilder(0, 10);
        builder.addRow(OpPlannerTest.key("t1"), offset, List.of(ROW));
        return builder.take();
    }


    private static Connection open(PostgresDatabase db) throws Exception {
        Connection c = db.connect();
        c.setAutoCommit(false);
        return c;
    }

    private static long count(PostgresDatabase db, String table) throws Exception {
        try (Connection c = db.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
