package io.tributary.writer.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.syncrules.BucketRow;
import java.util.List;
import org.junit.jupiter.api.Test;

class OpCopyTest {

    private static BucketOp put(String bucket, int id) {
        return BucketOp.put(new BucketRow(bucket, "items", Integer.toString(id), "{}"));
    }

    @Test
    void keyOrderGroupsOpsByBucketInBucketOrderKeepingOpIdOrderWithinEach() {
        List<BucketOp> ops = List.of(put("b", 0), put("a", 1), put("c", 2), put("a", 3), put("b", 4),
            put("a", 5));
        assertThat(OpCopy.keyOrder(ops, new long[] {10, 11, 12, 13, 14, 15})).containsExactly(1, 3, 5, 0, 4, 2);
    }

    @Test
    void keyOrderOfNoOpsIsEmpty() {
        assertThat(OpCopy.keyOrder(List.of(), new long[0])).isEmpty();
    }

    @Test
    void withinABucketOpIdsDecideTheOrder() {
        List<BucketOp> ops = List.of(put("a", 0), put("b", 1), put("a", 2));
        assertThat(OpCopy.keyOrder(ops, new long[] {30, 20, 10})).containsExactly(2, 0, 1);
    }
}
