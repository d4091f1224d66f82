package io.tributary.writer.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.syncrules.BucketRow;
import io.tributary.syncrules.Checksums;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class OpPlannerTest {

    private static final SourceKey T1 = key("t1");
    private static final BucketRow IN_U1 = new BucketRow("by_user[\"u1\"]", "todos", "t1", "{\"id\":\"t1\",\"v\":1}");
    private static final BucketRow IN_U1_V2 =
        new BucketRow("by_user[\"u1\"]", "todos", "t1", "{\"id\":\"t1\",\"v\":2}");
    private static final BucketRow IN_U2 = new BucketRow("by_user[\"u2\"]", "todos", "t1", "{\"id\":\"t1\",\"v\":2}");
    private static final BucketRow IN_GLOBAL = new BucketRow("global[]", "todos", "t1", "{\"id\":\"t1\",\"v\":1}");

    @Test
    void aNewRowIsPutIntoEachOfItsBuckets() {
        List<BucketOp> ops = OpPlanner.plan(List.of(RowChange.of(T1, 0, List.of(IN_U1, IN_GLOBAL))), Map.of());

        assertThat(ops).containsExactly(BucketOp.put(IN_U1), BucketOp.put(IN_GLOBAL));
    }

    @Test
    void aBucketMovingUpdateRemovesFromTheOldBucketThenPutsIntoTheNew() {
        List<BucketOp> ops = OpPlanner.plan(List.of(RowChange.of(T1, 5, List.of(IN_U2))),
            Map.of(T1, List.of(Membership.of(IN_U1))));

        assertThat(ops).containsExactly(BucketOp.remove(Membership.of(IN_U1)), BucketOp.put(IN_U2));
        assertThat(ops.get(0).checksum()).isEqualTo(Checksums.remove("todos", "t1"));
        assertThat(ops.get(0).data()).isEmpty();
    }

    @Test
    void aDeleteRemovesFromEveryBucketTheRowWasIn() {
        List<BucketOp> ops = OpPlanner.plan(List.of(RowChange.deleted(T1, 7)),
            Map.of(T1, List.of(Membership.of(IN_U1), Membership.of(IN_GLOBAL))));

        assertThat(ops).containsExactly(BucketOp.remove(Membership.of(IN_U1)),
            BucketOp.remove(Membership.of(IN_GLOBAL)));
    }

    @Test
    void changedDataInTheSameBucketIsAPutWithoutRemove() {
        List<BucketOp> ops = OpPlanner.plan(List.of(RowChange.of(T1, 9, List.of(IN_U1_V2))),
            Map.of(T1, List.of(Membership.of(IN_U1))));

        assertThat(ops).containsExactly(BucketOp.put(IN_U1_V2));
        assertThat(ops.get(0).data()).isEqualTo(Optional.of(IN_U1_V2.data()));
        assertThat(ops.get(0).checksum()).isEqualTo(Checksums.put("todos", "t1", IN_U1_V2.data()));
    }

    @Test
    void aRowNoQuerySelectsAnyMoreIsRemoved() {
        List<BucketOp> ops = OpPlanner.plan(List.of(RowChange.of(T1, 3, List.of())),
            Map.of(T1, List.of(Membership.of(IN_U1))));

        assertThat(ops).containsExactly(BucketOp.remove(Membership.of(IN_U1)));
    }

    @Test
    void deletingAnUnknownRowEmitsNothing() {
        assertThat(OpPlanner.plan(List.of(RowChange.deleted(T1, 1)), Map.of())).isEmpty();
    }

    @Test
    void eachRowsOpsAreConsecutiveInTheOrderGiven() {
        SourceKey t2 = key("t2");
        BucketRow t2Row = new BucketRow("global[]", "todos", "t2", "{\"id\":\"t2\"}");
        List<BucketOp> ops = OpPlanner.plan(List.of(RowChange.of(T1, 1, List.of(IN_U2)),
            RowChange.of(t2, 2, List.of(t2Row))), Map.of(T1, List.of(Membership.of(IN_U1))));

        assertThat(ops).containsExactly(BucketOp.remove(Membership.of(IN_U1)), BucketOp.put(IN_U2),
            BucketOp.put(t2Row));
    }

    static SourceKey key(String id) {
        return SourceKey.of(("[1,\"r\",\"public\",\"todos\",[\"" + id + "\"]]").getBytes(StandardCharsets.UTF_8));
    }
}
