package io.tributary.launcher.inspect;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Objects;
import java.util.Optional;

/**
 * The source's logical replication slot as {@code pg_replication_slots} reports it, measured against the
 * current WAL position. The slot holds WAL on the source's disk until its consumer confirms it: retained WAL
 * that keeps growing is what fills a source's disk.
 *
 * @param name                   the slot name
 * @param active                 whether a consumer (the ingest) is attached now
 * @param confirmedFlushLagBytes WAL bytes between the position the consumer confirmed and the current one,
 *                               {@code >= 0}
 * @param retainedWalBytes       WAL bytes the slot keeps on the source's disk (from its restart position to the
 *                               current one), {@code >= 0}
 * @param walStatus              {@code reserved}, {@code extended}, {@code unreserved} or {@code lost}
 *                               ({@code max_slot_wal_keep_size}), empty if the server does not say
 */
public record ReplicationSlot(String name, boolean active, long confirmedFlushLagBytes, long retainedWalBytes,
                              Optional<String> walStatus) {

    private static final String QUERY = "SELECT active, "
        + "COALESCE(pg_wal_lsn_diff(pg_current_wal_lsn(), confirmed_flush_lsn), 0)::bigint, "
        + "COALESCE(pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn), 0)::bigint, wal_status "
        + "FROM pg_replication_slots WHERE slot_name = ?";

    public ReplicationSlot {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(walStatus, "walStatus");
        confirmedFlushLagBytes = Math.max(0, confirmedFlushLagBytes);
        retainedWalBytes = Math.max(0, retainedWalBytes);
    }

    /** Reads slot {@code name} on the source; empty if the slot does not exist (yet). */
    public static Optional<ReplicationSlot> read(Connection source, String name) throws SQLException {
        try (PreparedStatement statement = source.prepareStatement(QUERY)) {
            statement.setString(1, name);
            try (ResultSet rs = statement.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new ReplicationSlot(name, rs.getBoolean(1), rs.getLong(2), rs.getLong(3),
                    Optional.ofNullable(rs.getString(4))));
            }
        }
    }

    /** Whether the retained WAL is above {@code thresholdBytes}. */
    public boolean retainsMoreThan(long thresholdBytes) {
        return retainedWalBytes > thresholdBytes;
    }

    /** One line for logs, {@code /health/ready} and {@code status}. */
    public String describe() {
        return String.format("slot %s %s, retains %s of WAL, confirmed flush %s behind%s", name,
            active ? "active" : "inactive", bytes(retainedWalBytes), bytes(confirmedFlushLagBytes),
            walStatus.map(status -> " (wal_status " + status + ")").orElse(""));
    }

    static String bytes(long bytes) {
        if (bytes < 1024 * 1024) {
            return bytes + " B";
        }
        return String.format("%.1f MiB", bytes / (1024.0 * 1024.0));
    }
}
