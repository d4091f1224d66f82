package io.tributary.writer.apply;

import io.tributary.writer.consume.PartitionClaim;
import io.tributary.writer.consume.PartitionClaims;
import java.sql.Connection;
import java.sql.SQLException;

/** Apply targets of a test under a partition claim, as a writer that just claimed the partition holds them. */
final class ClaimedTargets {

    private ClaimedTargets() {
    }

    /** Claims {@code partition} of {@code group} on {@code connection} (committing the claim) and targets it. */
    static ApplyTarget claim(Connection connection, long group, int partition) throws SQLException {
        return of(group, PartitionClaims.claim(connection, group, partition));
    }

    /** The target of {@code claim}'s partition of {@code group}, at the epoch sealed when it was claimed. */
    static ApplyTarget of(long group, PartitionClaim claim) {
        return new ApplyTarget(group, claim.partition(), claim.fencingToken(), claim.sealedEpoch());
    }
}
