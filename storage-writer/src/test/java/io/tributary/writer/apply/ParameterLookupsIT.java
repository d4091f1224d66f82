package io.tributary.writer.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.storage.parameters.ParameterLookupsAt;
import io.tributary.syncrules.BucketRow;
import io.tributary.syncrules.ParameterRow;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TableTruncate;
import io.tributary.writer.GroupsInStorage;
import io.tributary.writer.consume.PartitionClaim;
import io.tributary.writer.consume.PartitionClaims;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The writer keeps {@code bucket_parameters} with the ops: a lookup read at a checkpoint (a seal's highest op id)
 * sees exactly the member rows as they were at that barrier, also when several epochs commit in one transaction.
 */
@RealServices
class ParameterLookupsIT {

    private static final String U1 = "[\"list_members\",0,\"u1\"]";
    private static final String U2 = "[\"list_members\",0,\"u2\"]";
    private static final String L1 = "{\"list_id\":\"l1\"}";
    private static final String L2 = "{\"list_id\":\"l2\"}";
    private static final List<String> PARAMETER_TABLES = List.of("public.list_members");

    @Test
    void aLookupAtEachSealSeesTheMembersOfItsEpoch(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        long group = GroupsInStorage.one(db);
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            PartitionClaim claim = PartitionClaims.claim(c, group, 0);
            BatchBuilder builder = new BatchBuilder(0, 100);
            List<PreparedBatch> batches = new ArrayList<>();
            builder.addRow(member("m1"), 0, List.of(), List.of(new ParameterRow(U1, L1)));
            builder.addRow(member("m2"), 1, List.of(), List.of(new ParameterRow(U1, L2)));
            builder.addBarrier(Barrier.of(1, Lsn.of(100)), 2);
            batches.add(builder.take());
            builder.addRow(member("m1"), 3, List.of(), List.of(new ParameterRow(U2, L1)));
            builder.addRow(member("m2"), 4, List.of(), List.of(new ParameterRow(U1, L2)));
            builder.addRow(OpPlannerTest.key("t1"), 5, List.of(new BucketRow("list_members[\"l1\"]", "todos", "t1",
                "{\"id\":\"t1\"}")));
            builder.addBarrier(Barrier.of(2, Lsn.of(200)), 6);
            batches.add(builder.take());
            builder.addDelete(member("m2"), 7);
            builder.addBarrier(Barrier.of(3, Lsn.of(300)), 8);
            batches.add(builder.take());

            new BatchApplier(group, PARAMETER_TABLES).apply(c, List.of(ClaimedTargets.of(group, claim)), batches);
        }
        List<Long> seals = column(db, "SELECT max_op_id FROM tributary.sealed_epochs ORDER BY epoch");
        assertThat(column(db, "SELECT count(*) FROM tributary.bucket_parameters")).as("an unchanged row adds none")
            .containsExactly(5L);
        try (Connection c = db.connect()) {
            assertThat(ParameterLookupsAt.read(c, group, List.of(U1, U2), seals.get(0)))
                .hasValue(Map.of(U1, List.of(L1, L2)));
            assertThat(ParameterLookupsAt.read(c, group, List.of(U1, U2), seals.get(1)))
                .hasValue(Map.of(U1, List.of(L2), U2, List.of(L1)));
            assertThat(ParameterLookupsAt.read(c, group, List.of(U1, U2), seals.get(2)))
                .hasValue(Map.of(U2, List.of(L1)));
            assertThat(ParameterLookupsAt.read(c, group, List.of(U1), seals.get(0) - 1))
                .as("below the first seal: only what its epoch wrote before").hasValue(Map.of(U1, List.of(L1)));
        }
    }

    @Test
    void aTruncationRetiresEveryLookupOfTheTable(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        long group = GroupsInStorage.one(db);
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            PartitionClaim claim = PartitionClaims.claim(c, group, 0);
            BatchApplier applier = new BatchApplier(group, PARAMETER_TABLES);
            BatchBuilder builder = new BatchBuilder(0, 100);
            builder.addRow(member("m1"), 0, List.of(), List.of(new ParameterRow(U1, L1)));
            builder.addBarrier(Barrier.of(1, Lsn.of(100)), 1);
            applier.apply(c, ClaimedTargets.of(group, claim), builder.take());
            builder.addRow(member("m2"), 2, List.of(), List.of(new ParameterRow(U2, L2)));
            builder.addTruncate(new TableTruncate(new TableId("public", "list_members"), Lsn.of(150), 1, 9), 3);
            applier.apply(c, ClaimedTargets.claim(c, group, 0), builder.take());
        }
        try (Connection c = db.connect()) {
            assertThat(ParameterLookupsAt.read(c, group, List.of(U1, U2), Long.MAX_VALUE)).hasValue(Map.of());
        }
        assertThat(column(db, "SELECT max(op_id) FROM tributary.bucket_parameters"))
            .isEqualTo(column(db, "SELECT max_op_id FROM tributary.partition_offsets"));
    }

    private static SourceKey member(String id) {
        return SourceKey.of(("[1,\"r\",\"public\",\"list_members\",[\"" + id + "\"]]")
            .getBytes(StandardCharsets.UTF_8));
    }


    private static List<Long> column(PostgresDatabase db, String sql) throws Exception {
        List<Long> values = new ArrayList<>();
        try (Connection c = db.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                values.add(rs.getLong(1));
            }
        }
        return values;
    }
}
