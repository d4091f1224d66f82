package io.tributary.storage.checkpoint;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * The write checkpoints of sync clients ({@code tributary.write_checkpoints}, storage V9).
 *
 * <p>A client that uploaded writes to the source asks for a write checkpoint; it records the source's WAL position
 * at that moment. The client's sync stream reports the newest write checkpoint of the client that a published
 * checkpoint covers (checkpoint LSN &gt;= its LSN). Each method is one statement on the given connection (in
 * auto-commit mode). Stateless and thread-safe; connections are not.
 */
public final class WriteCheckpoints {

    private WriteCheckpoints() {
    }

    /**
     * Records a write checkpoint of {@code userId}/{@code clientId} at the source position {@code lsn}, and forgets
     * that client's write checkpoints older than a day except the newest.
     *
     * @return the new write checkpoint
     */
    public static WriteCheckpoint create(Connection connection, String userId, String clientId, String lsn)
        throws SQLException {
        long id;
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO tributary.write_checkpoints"
            + " (user_id, client_id, write_checkpoint, lsn) VALUES (?, ?, nextval('tributary.write_checkpoint_seq'),"
            + " ?::pg_lsn) RETURNING write_checkpoint")) {
            insert.setString(1, userId);
            insert.setString(2, clientId);
            insert.setString(3, lsn);
            try (ResultSet rs = insert.executeQuery()) {
                rs.next();
                id = rs.getLong(1);
            }
        }
        try (PreparedStatement prune = connection.prepareStatement("DELETE FROM tributary.write_checkpoints"
            + " WHERE user_id = ? AND client_id = ? AND write_checkpoint < ?"
            + " AND created_at < now() - interval '1 day'")) {
            prune.setString(1, userId);
            prune.setString(2, clientId);
            prune.setLong(3, id);
            prune.executeUpdate();
        }
        return new WriteCheckpoint(userId, clientId, id, lsn);
    }

    /** The newest write checkpoint id of {@code userId}/{@code clientId} with an LSN at or before {@code lsn}. */
    public static OptionalLong newestCovered(Connection connection, String userId, String clientId, String lsn)
        throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT max(write_checkpoint)"
            + " FROM tributary.write_checkpoints WHERE user_id = ? AND client_id = ? AND lsn <= ?::pg_lsn")) {
            select.setString(1, userId);
            select.setString(2, clientId);
            select.setString(3, lsn);
            try (ResultSet rs = select.executeQuery()) {
                rs.next();
                long id = rs.getLong(1);
                return rs.wasNull() ? OptionalLong.empty() : OptionalLong.of(id);
            }
        }
    }

    /**
     * The write checkpoints with an LSN in {@code (afterLsn, uptoLsn]}: what a checkpoint advancing from
     * {@code afterLsn} to {@code uptoLsn} newly covers, the newest per client only.
     */
    public static List<WriteCheckpoint> coveredBetween(Connection connection, String afterLsn, String uptoLsn)
        throws SQLException {
        List<WriteCheckpoint> covered = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement("SELECT DISTINCT ON (user_id, client_id)"
            + " user_id, client_id, write_checkpoint, lsn::text FROM tributary.write_checkpoints"
            + " WHERE lsn > ?::pg_lsn AND lsn <= ?::pg_lsn ORDER BY user_id, client_id, write_checkpoint DESC")) {
            select.setString(1, afterLsn);
            select.setString(2, uptoLsn);
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    covered.add(new WriteCheckpoint(rs.getString(1), rs.getString(2), rs.getLong(3),
                        rs.getString(4)));
                }
            }
        }
        return covered;
    }
}
