package io.tributary.storage.groups;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * What the storage writers' seals ({@code tributary.sealed_epochs}) tell about the table log {@code rows}: a
 * partition's writer seals an epoch when it has applied the barrier ending it, so a sealed barrier LSN is a place
 * every record before it in that partition of {@code rows} has reached. Stateless.
 */
public final class SealedBarriers {

    private static final String PASSED = "SELECT EXISTS (SELECT 1 FROM tributary.sealed_epochs s"
        + " JOIN tributary.sync_rules g ON g.group_id = s.group_id"
        + " WHERE g.state IN ('PROCESSING', 'ACTIVE') AND s.lsn >= ?::pg_lsn"
        + " GROUP BY s.group_id HAVING count(DISTINCT s.partition) >= ?)";

    private static final String HIGHEST = "SELECT epoch, lsn::text FROM tributary.sealed_epochs"
        + " ORDER BY epoch DESC, lsn DESC LIMIT 1";

    /**
     * A barrier a storage writer sealed.
     *
     * @param epoch the epoch it ends
     * @param lsn   its LSN, in Postgres' text form
     */
    public record Sealed(long epoch, String lsn) {
    }

    private SealedBarriers() {
    }

    /**
     * The barrier of the highest epoch any group's writers sealed, if any: the epochs of the barriers ingest writes
     * next must be higher (a writer ignores a barrier of an epoch it sealed), and their LSNs not lower.
     */
    public static Optional<Sealed> highest(Connection connection) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(HIGHEST);
             ResultSet rs = select.executeQuery()) {
            return rs.next() ? Optional.of(new Sealed(rs.getLong(1), rs.getString(2))) : Optional.empty();
        }
    }

    /**
     * Whether the writers of one live group sealed, in each of the {@code partitions} partitions of {@code rows}, a
     * barrier at or past {@code lsn} (Postgres text form): every change committed at or before {@code lsn} is then
     * in {@code rows}, in every partition, ahead of everything written to it later (barriers are written once every
     * change at or below their LSN is).
     */
    public static boolean passedEverywhere(Connection connection, String lsn, int partitions) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(PASSED)) {
            select.setString(1, lsn);
            select.setInt(2, partitions);
            try (ResultSet rs = select.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }
}
