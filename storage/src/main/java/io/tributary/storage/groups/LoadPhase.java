package io.tributary.storage.groups;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * A fresh group's load phase: its ops are copied into {@code bucket_data_g<id>} without the table's primary key and
 * the key is built once, before the first checkpoint, the way {@code pg_restore} loads a table and then indexes it.
 * Nothing reads a group's ops before its first checkpoint (the api serves published checkpoints only, compaction
 * works below them), and the key is what a COPY into {@code bucket_data} pays most for per row.
 *
 * <p>A partition of {@code bucket_data} must carry the parent's key, so the load detaches the group's table
 * ({@link #begin}) and the first checkpoint attaches it again ({@link #finish}); {@link LoadState} is the state in
 * {@code sync_rules.load_state}. Both run under a row lock on the group's {@code sync_rules} row
 * ({@code FOR NO KEY UPDATE}, which the writers' foreign-key checks do not wait for), so a load never starts after a
 * first checkpoint and no checkpoint is published while the table has no key: {@link #finish} runs in the
 * transaction that publishes the first checkpoint. Writers copy ops into the group's table itself
 * ({@link #bucketData}), attached or not. Only {@code bucket_data} loads without its key: {@code current_data}'s key
 * is how a writer tells a key seen before (a replayed log not compacted yet) from a new one, so a row's ops are
 * planned against its previous state exactly as after the load.
 *
 * <p>Stateless; every call runs in the caller's connection (auto-commit off).
 */
public final class LoadPhase {

    private static final String LOCK = "SELECT load_state, checkpoint_epoch IS NULL FROM tributary.sync_rules"
        + " WHERE group_id = ? FOR NO KEY UPDATE";
    private static final String MOVE = "UPDATE tributary.sync_rules SET load_state = ? WHERE group_id = ?"
        + " AND load_state = ?";
    private static final String PRIMARY_KEY = "SELECT conname FROM pg_constraint WHERE contype = 'p'"
        + " AND conrelid = to_regclass(?)";
    private static final String LOCK_NOT_AVAILABLE = "55P03";

    private LoadPhase() {
    }

    /** The table of group {@code groupId}'s ops, a partition of {@code bucket_data} except while it loads. */
    public static String bucketData(long groupId) {
        return "tributary.bucket_data_g" + groupId;
    }

    /**
     * Starts the load phase of group {@code groupId} if it has no checkpoint yet and is NEW: detaches its table from
     * {@code bucket_data} and drops its key, in one transaction that commits. Detaching locks {@code bucket_data}
     * exclusively for a moment; if that lock is not granted within {@code lockTimeout} (a long read of another
     * group), nothing changes and the group goes on with its key (the load phase is a saving, never required).
     *
     * @return the group's load state afterwards
     */
    public static LoadState begin(Connection connection, long groupId, Duration lockTimeout) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET LOCAL lock_timeout = " + Math.max(1, lockTimeout.toMillis()));
            Locked locked = lock(connection, groupId);
            if (locked.state() != LoadState.NEW || !locked.firstCheckpointPending()) {
                connection.commit();
                return locked.state();
            }
            LoadState.NEW.requireTransitionTo(LoadState.LOADING);
            String table = bucketData(groupId);
            statement.execute("ALTER TABLE tributary.bucket_data DETACH PARTITION " + table);
            String key = primaryKey(connection, table);
            statement.execute("ALTER TABLE " + table + " DROP CONSTRAINT " + key);
            statement.execute("ALTER TABLE " + table + " ADD CONSTRAINT bucket_data_g" + groupId + "_group CHECK"
                + " (group_id = " + groupId + ")");
            move(connection, groupId, LoadState.NEW, LoadState.LOADING);
            connection.commit();
            return LoadState.LOADING;
        } catch (SQLException e) {
            connection.rollback();
            if (LOCK_NOT_AVAILABLE.equals(e.getSQLState())) {
                return LoadState.NEW;
            }
            throw e;
        } catch (RuntimeException e) {
            connection.rollback();
            throw e;
        }
    }

    /**
     * Ends the load phase of group {@code groupId} inside the caller's transaction (the one publishing its first
     * checkpoint; the caller commits): if LOADING, builds the table's key and attaches it to {@code bucket_data}
     * again; a NEW group becomes INDEXED as it is. Locks the group's {@code sync_rules} row until the caller's
     * commit.
     *
     * @return whether this call built the key
     */
    public static boolean finish(Connection connection, long groupId) throws SQLException {
        LoadState state = lock(connection, groupId).state();
        if (state == LoadState.INDEXED) {
            return false;
        }
        state.requireTransitionTo(LoadState.INDEXED);
        if (state == LoadState.LOADING) {
            String table = bucketData(groupId);
            try (Statement statement = connection.createStatement()) {
                statement.execute("ALTER TABLE " + table + " ADD CONSTRAINT bucket_data_g" + groupId + "_pkey"
                    + " PRIMARY KEY (group_id, bucket, op_id)");
                statement.execute("ALTER TABLE tributary.bucket_data ATTACH PARTITION " + table
                    + " FOR VALUES IN (" + groupId + ")");
            }
        }
        move(connection, groupId, state, LoadState.INDEXED);
        return state == LoadState.LOADING;
    }

    /** The load state of group {@code groupId} (no lock). */
    public static LoadState state(Connection connection, long groupId) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(
            "SELECT load_state FROM tributary.sync_rules WHERE group_id = ?")) {
            select.setLong(1, groupId);
            try (ResultSet rs = select.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalArgumentException("No sync rules group " + groupId);
                }
                return LoadState.valueOf(rs.getString(1));
            }
        }
    }

    private record Locked(LoadState state, boolean firstCheckpointPending) {
    }

    private static Locked lock(Connection connection, long groupId) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(LOCK)) {
            select.setLong(1, groupId);
            try (ResultSet rs = select.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalArgumentException("No sync rules group " + groupId);
                }
                return new Locked(LoadState.valueOf(rs.getString(1)), rs.getBoolean(2));
            }
        }
    }

    private static void move(Connection connection, long groupId, LoadState from, LoadState to) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(MOVE)) {
            update.setString(1, to.name());
            update.setLong(2, groupId);
            update.setString(3, from.name());
            if (update.executeUpdate() != 1) {
                throw new IllegalStateException("Group " + groupId + " left load state " + from
                    + " while its sync_rules row was locked");
            }
        }
    }

    private static String primaryKey(Connection connection, String table) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(PRIMARY_KEY)) {
            select.setString(1, table);
            try (ResultSet rs = select.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException(table + " has no primary key to drop");
                }
                return rs.getString(1);
            }
        }
    }
}
