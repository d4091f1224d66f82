package io.tributary.chaos.check;

import io.tributary.storage.groups.Checkpoint;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Every checkpoint published in a storage database, recorded in the publishing transaction itself: a trigger on
 * {@code tributary.sync_rules} appends each new checkpoint of a group ({@code checkpoint_op_id},
 * {@code checkpoint_lsn} or {@code checkpoint_epoch} changed) to {@code chaos.published_checkpoints}. A checkpoint
 * that is published and superseded between two reads of {@code sync_rules} is therefore still in the log, and a
 * checkpoint is in the log iff its publication committed.
 *
 * <p>The log is bounded by its reader: {@link #forget} deletes what was read. Stateless; every method works on the
 * connection it is given.
 */
public final class CheckpointLog {

    private static final String INSTALL = """
        CREATE SCHEMA IF NOT EXISTS chaos;
        CREATE TABLE IF NOT EXISTS chaos.published_checkpoints (
            sequence     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            group_id     bigint      NOT NULL,
            op_id        bigint      NOT NULL,
            lsn          pg_lsn      NOT NULL,
            epoch        bigint      NOT NULL,
            published_at timestamptz NOT NULL DEFAULT clock_timestamp()
        );
        CREATE OR REPLACE FUNCTION chaos.record_checkpoint() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO chaos.published_checkpoints (group_id, op_id, lsn, epoch)
            VALUES (NEW.group_id, NEW.checkpoint_op_id, NEW.checkpoint_lsn, NEW.checkpoint_epoch);
            RETURN NULL;
        END
        $$;
        DROP TRIGGER IF EXISTS chaos_record_checkpoint ON tributary.sync_rules;
        CREATE TRIGGER chaos_record_checkpoint AFTER UPDATE ON tributary.sync_rules FOR EACH ROW
            WHEN (NEW.checkpoint_op_id IS NOT NULL AND (NEW.checkpoint_op_id, NEW.checkpoint_lsn, NEW.checkpoint_epoch)
                IS DISTINCT FROM (OLD.checkpoint_op_id, OLD.checkpoint_lsn, OLD.checkpoint_epoch))
            EXECUTE FUNCTION chaos.record_checkpoint();
        """;

    private CheckpointLog() {
    }

    /**
     * Installs the log (idempotent) into a migrated storage database. Checkpoints published before it was
     * installed are not in it.
     *
     * @throws SQLException if storage does not answer or is not migrated yet (no {@code tributary.sync_rules})
     */
    public static void install(Connection storage) throws SQLException {
        try (Statement statement = storage.createStatement()) {
            statement.execute(INSTALL);
        }
    }

    /** Up to {@code limit} checkpoints published after {@code afterSequence}, in publication order. */
    public static List<PublishedCheckpoint> after(Connection storage, long afterSequence, int limit)
        throws SQLException {
        List<PublishedCheckpoint> published = new ArrayList<>();
        try (PreparedStatement select = storage.prepareStatement("SELECT sequence, group_id, op_id, lsn::text, epoch"
            + " FROM chaos.published_checkpoints WHERE sequence > ? ORDER BY sequence LIMIT ?")) {
            select.setLong(1, afterSequence);
            select.setInt(2, limit);
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    published.add(new PublishedCheckpoint(rs.getLong(1), rs.getLong(2),
                        new Checkpoint(rs.getLong(3), rs.getString(4), rs.getLong(5))));
                }
            }
        }
        return published;
    }

    /** Deletes the checkpoints up to and including {@code sequence}: the reader is done with them. */
    public static void forget(Connection storage, long sequence) throws SQLException {
        try (PreparedStatement delete = storage.prepareStatement(
            "DELETE FROM chaos.published_checkpoints WHERE sequence <= ?")) {
            delete.setLong(1, sequence);
            delete.executeUpdate();
        }
    }
}
