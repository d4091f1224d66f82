package io.tributary.chaos.check;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The commit position of every source transaction, read from the source's WAL through a logical replication slot
 * of the auditor's own with Postgres' {@code test_decoding} plugin: the lines {@code COMMIT <xid>} and the position
 * Postgres reports with them (the end of the commit record, the position a checkpoint's LSN is compared with).
 * Shares no code with the pipeline's capture (Debezium and pgoutput). Create the slot before the first audited
 * write; read it while the run goes on (it holds the source's WAL until read); drop it at the end.
 *
 * <p>Stateless; every method works on the connection it is given (auto-commit on).
 */
public final class CommitLog {

    /** One committed transaction: its 32-bit transaction id and the end of its commit record. */
    public record Commit(long xid, long endLsn) {
    }

    private CommitLog() {
    }

    /** Creates {@code slot} (waits for transactions running now to end). */
    public static void create(Connection source, String slot) throws SQLException {
        try (PreparedStatement create = source.prepareStatement(
            "SELECT pg_create_logical_replication_slot(?, 'test_decoding')")) {
            create.setString(1, slot);
            create.execute();
        }
    }

    /**
     * The transactions committed since the previous read, in commit order, consuming them from the slot: every
     * commit at or before the source's flushed WAL position when the call began.
     */
    public static List<Commit> read(Connection source, String slot) throws SQLException {
        List<Commit> commits = new ArrayList<>();
        try (PreparedStatement changes = source.prepareStatement("SELECT lsn::text, data FROM"
            + " pg_logical_slot_get_changes(?, NULL, NULL, 'include-xids', '1', 'skip-empty-xacts', '1')"
            + " WHERE data LIKE 'COMMIT %'")) {
            changes.setString(1, slot);
            changes.setFetchSize(10_000);
            try (ResultSet rs = changes.executeQuery()) {
                while (rs.next()) {
                    commits.add(new Commit(Long.parseLong(rs.getString(2).substring("COMMIT ".length()).trim()),
                        lsn(rs.getString(1))));
                }
            }
        }
        return commits;
    }

    /** Drops {@code slot} if it exists and no one reads it. */
    public static void drop(Connection source, String slot) throws SQLException {
        try (PreparedStatement drop = source.prepareStatement("SELECT pg_drop_replication_slot(slot_name)"
            + " FROM pg_replication_slots WHERE slot_name = ? AND NOT active")) {
            drop.setString(1, slot);
            drop.execute();
        }
    }

    /** An LSN's text form {@code X/Y} as one unsigned 64-bit number. */
    public static long lsn(String text) {
        int slash = text.indexOf('/');
        if (slash < 0) {
            throw new IllegalArgumentException("Not an LSN: " + text);
        }
        return Long.parseUnsignedLong(text.substring(0, slash), 16) << 32
            | Long.parseUnsignedLong(text.substring(slash + 1), 16);
    }
}
