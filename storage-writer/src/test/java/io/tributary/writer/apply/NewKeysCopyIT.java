package io.tributary.writer.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.syncrules.BucketRow;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.writer.GroupsInStorage;
import java.sql.Connection;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An applier copies the rows of new keys into {@code current_data}; when a key it expected new is stored, it applies
 * the transaction again looking keys up, with the same outcome as if it had looked them up from the start.
 */
@RealServices
class NewKeysCopyIT {

    @Test
    void aStoredKeyAmongKeysExpectedNewGetsItsRemoveAndNothingIsWrittenTwice(TestServices services)
        throws Exception {
        PostgresDatabase db = services.newDatabase();
        long group = GroupsInStorage.one(db);
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            ApplyTarget target = ClaimedTargets.claim(c, group, 0);
            BatchApplier applier = new BatchApplier(group);
            BatchBuilder first = new BatchBuilder(0, 10);
            first.addRow(OpPlannerTest.key("t1"), 0, List.of(new BucketRow("a[]", "todos", "t1", "{\"v\":1}")));
            first.addRow(OpPlannerTest.key("t2"), 1, List.of(new BucketRow("a[]", "todos", "t2", "{\"v\":1}")));
            applier.apply(c, target, first.take());

            BatchBuilder second = new BatchBuilder(0, 10);
            second.addRow(OpPlannerTest.key("t3"), 2, List.of(new BucketRow("a[]", "todos", "t3", "{\"v\":1}")));
            second.addRow(OpPlannerTest.key("t1"), 3, List.of(new BucketRow("b[]", "todos", "t1", "{\"v\":2}")));
            ApplyResult result = applier.apply(c, target, second.take());

            assertThat(result.ops()).isEqualTo(3);
            assertThat(result.nextOffset()).isEqualTo(4);
        }
        assertThat(db.column("SELECT op || ' ' || bucket || ' ' || row_id FROM tributary.bucket_data"
            + " ORDER BY op_id")).containsExactly("1 a[] t1", "1 a[] t2", "1 a[] t3", "2 a[] t1", "1 b[] t1");
        assertThat(db.column("SELECT buckets || ' ' || source_offset FROM tributary.current_data"
            + " ORDER BY source_offset")).containsExactly("[[\"a[]\",\"todos\",\"t2\"]] 1",
                "[[\"a[]\",\"todos\",\"t3\"]] 2", "[[\"b[]\",\"todos\",\"t1\"]] 3");
    }
}
