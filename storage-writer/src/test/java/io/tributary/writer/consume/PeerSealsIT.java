package io.tributary.writer.consume;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.writer.GroupsInStorage;
import java.sql.Connection;
import org.junit.jupiter.api.Test;

/** The gate's re-read of {@code sealed_epochs}. */
@RealServices
class PeerSealsIT {

    @Test
    void refreshReadsEachPartitionsNewestSealOfItsGroupOnly(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        long[] groups = GroupsInStorage.create(db, 2);
        long group = groups[0];
        long other = groups[1];
        db.execute("INSERT INTO tributary.sealed_epochs (group_id, partition, epoch, lsn, max_op_id)"
            + " SELECT " + group + ", p, e, '0/1', e FROM generate_series(0, 1) p, generate_series(1, 500) e");
        db.execute("INSERT INTO tributary.sealed_epochs (group_id, partition, epoch, lsn, max_op_id)"
            + " VALUES (" + other + ", 2, 900, '0/1', 1)");
        PeerSeals seals = new PeerSeals(group, 3);

        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            seals.refresh(c);
        }

        assertThat(seals.allows(2, 500)).isTrue();
        assertThat(seals.allows(2, 501)).isFalse();
        assertThat(seals.allows(0, 0)).isFalse();
        assertThat(seals.allows(0, -1)).isTrue();
    }
}
