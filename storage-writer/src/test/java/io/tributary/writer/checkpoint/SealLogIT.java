package io.tributary.writer.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.writer.GroupsInStorage;
import java.sql.Connection;
import org.junit.jupiter.api.Test;

/** The checkpointer's incremental read of {@code sealed_epochs}. */
@RealServices
class SealLogIT {

    @Test
    void eachReadAddsTheNewerSealsOfItsGroupAndDropsThoseAtOrBelowTheCheckpoint(TestServices services)
        throws Exception {
        PostgresDatabase db = services.newDatabase();
        long[] groups = GroupsInStorage.create(db, 2);
        long group = groups[0];
        long other = groups[1];
        seal(db, group, 0, 1);
        seal(db, group, 1, 1);
        seal(db, other, 0, 7);
        SealLog log = new SealLog(group, 2);

        try (Connection c = db.connect()) {
            assertThat(log.above(c, -1)).extracting(SealRow::epoch).containsExactlyInAnyOrder(1L, 1L);

            seal(db, group, 0, 2);
            seal(db, group, 1, 2);
            seal(db, group, 0, 3);
            assertThat(log.above(c, -1)).extracting(s -> s.partition() + "@" + s.epoch())
                .containsExactlyInAnyOrder("0@1", "1@1", "0@2", "1@2", "0@3");

            assertThat(log.above(c, 2)).extracting(s -> s.partition() + "@" + s.epoch()).containsExactly("0@3");
        }
    }

    private static void seal(PostgresDatabase db, long group, int partition, long epoch) throws Exception {
        db.execute("INSERT INTO tributary.sealed_epochs (group_id, partition, epoch, lsn, max_op_id) VALUES ("
            + group + ", " + partition + ", " + epoch + ", '0/" + epoch + "', " + epoch + ")");
    }
}
