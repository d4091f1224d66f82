package io.tributary.storage.groups;

import io.tributary.postgres.Transactions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The sync rules groups in storage: create, move through their lifecycle, clear.
 *
 * <p>Every method is one short transaction of its own on the given connection (which must be in auto-commit
 * mode on entry; it is restored). Transitions are compare-and-set on the current state, so two processes
 * racing to move a group cannot both win. Stateless and thread-safe; connections are not.
 */
public final class SyncRulesGroups {

    private static final String COLUMNS =
        "group_id, content, state, checkpoint_op_id, checkpoint_lsn::text, checkpoint_epoch, cleared_at IS NOT NULL";

    private SyncRulesGroups() {
    }

    /**
     * Stores a new group in state PROCESSING and creates its storage partitions.
     *
     * @return the new group
     */
    public static SyncRulesGroup create(Connection connection, String content) throws SQLException {
        return Transactions.inTransaction(connection, () -> {
            long id;
            try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO tributary.sync_rules (content, state) VALUES (?, 'PROCESSING') RETURNING group_id")) {
                insert.setString(1, content);
                try (ResultSet rs = insert.executeQuery()) {
                    rs.next();
                    id = rs.getLong(1);
                }
            }
            try (Statement ddl = connection.createStatement()) {
                lockPartitionParents(ddl);
                ddl.execute("CREATE TABLE tributary.bucket_data_g" + id
                    + " PARTITION OF tributary.bucket_data FOR VALUES IN (" + id + ")");
                ddl.execute("CREATE TABLE tributary.current_data_g" + id
                    + " PARTITION OF tributary.current_data FOR VALUES IN (" + id + ")");
                ddl.execute("CREATE TABLE tributary.bucket_parameters_g" + id
                    + " PARTITION OF tributary.bucket_parameters FOR VALUES IN (" + id + ")");
            }
            return new SyncRulesGroup(id, content, GroupState.PROCESSING, Optional.empty(), false);
        });
    }

    /** The group with this id. */
    public static Optional<SyncRulesGroup> find(Connection connection, long id) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(
            "SELECT " + COLUMNS + " FROM tributary.sync_rules WHERE group_id = ?")) {
            select.setLong(1, id);
            try (ResultSet rs = select.executeQuery()) {
                return rs.next() ? Optional.of(read(rs)) : Optional.empty();
            }
        }
    }

    /** Every group, oldest first. */
    public static List<SyncRulesGroup> list(Connection connection) throws SQLException {
        List<SyncRulesGroup> groups = new ArrayList<>();
        try (Statement select = connection.createStatement();
             ResultSet rs = select.executeQuery("SELECT " + COLUMNS + " FROM tributary.sync_rules ORDER BY group_id")) {
            while (rs.next()) {
                groups.add(read(rs));
            }
        }
        return groups;
    }

    /**
     * Moves a group from {@code from} to {@code to}.
     *
     * @return false if the group was no longer in {@code from} (another process moved it first)
     * @throws IllegalStateException if {@code from -> to} is not a legal transition
     */
    public static boolean transition(Connection connection, long id, GroupState from, GroupState to)
        throws SQLException {
        from.requireTransitionTo(to);
        try (PreparedStatement update = connection.prepareStatement(
            "UPDATE tributary.sync_rules SET state = ?, state_changed_at = now() WHERE group_id = ? AND state = ?")) {
            update.setString(1, to.name());
            update.setLong(2, id);
            update.setString(3, from.name());
            return update.executeUpdate() == 1;
        }
    }

    /**
     * Records that the groups {@code ids} are planned: a planning round that saw them live at its start has stored
     * a snapshot window for every table their rules matched (see {@code V4__planning_state.sql}). Until then
     * their checkpoints are held. Idempotent: a group keeps its first planning time.
     *
     * @return the ids of the groups that were not planned before, in ascending order
     */
    public static List<Long> markPlanned(Connection connection, Collection<Long> ids) throws SQLException {
        List<Long> marked = new ArrayList<>();
        if (ids.isEmpty()) {
            return marked;
        }
        try (PreparedStatement update = connection.prepareStatement(
            "UPDATE tributary.sync_rules SET planned_at = now() WHERE group_id = ANY (?) AND planned_at IS NULL"
                + " RETURNING group_id")) {
            update.setArray(1, connection.createArrayOf("bigint", ids.toArray()));
            try (ResultSet rs = update.executeQuery()) {
                while (rs.next()) {
                    marked.add(rs.getLong(1));
                }
            }
        }
        marked.sort(null);
        return marked;
    }

    /** Whether group {@code id} is planned ({@link #markPlanned}); false for an unknown group. */
    public static boolean isPlanned(Connection connection, long id) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(
            "SELECT planned_at IS NOT NULL FROM tributary.sync_rules WHERE group_id = ?")) {
            select.setLong(1, id);
            try (ResultSet rs = select.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    /**
     * Moves every group that has been in STOP for at least {@code grace} to TERMINATED. The grace period lets
     * its writers notice the STOP and leave before its storage is cleared.
     *
     * @return the ids of the groups moved
     */
    public static List<Long> terminateStopped(Connection connection, Duration grace) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (PreparedStatement update = connection.prepareStatement(
            "UPDATE tributary.sync_rules SET state = 'TERMINATED', state_changed_at = now()"
                + " WHERE state = 'STOP' AND state_changed_at <= now() - make_interval(secs => ?)"
                + " RETURNING group_id")) {
            update.setDouble(1, grace.toMillis() / 1000.0);
            try (ResultSet rs = update.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
        }
        return ids;
    }

    /**
     * Drops the storage partitions of a TERMINATED group (constant time whatever their size) and its writers'
     * per-partition bookkeeping (offsets, seals, readiness, replay targets: a few rows per partition).
     *
     * @throws IllegalStateException if the group is not TERMINATED
     */
    public static void clear(Connection connection, long id) throws SQLException {
        Transactions.inTransaction(connection, () -> {
            SyncRulesGroup group = find(connection, id)
                .orElseThrow(() -> new IllegalArgumentException("No sync rules group " + id));
            if (group.state() != GroupState.TERMINATED) {
                throw new IllegalStateException("Only a TERMINATED group can be cleared; group " + id + " is "
                    + group.state());
            }
            try (Statement ddl = connection.createStatement()) {
                lockPartitionParents(ddl);
                ddl.execute("DROP TABLE IF EXISTS tributary.bucket_data_g" + id);
                ddl.execute("DROP TABLE IF EXISTS tributary.current_data_g" + id);
                ddl.execute("DROP TABLE IF EXISTS tributary.bucket_parameters_g" + id);
                for (String table : List.of("partition_offsets", "sealed_epochs", "table_readiness",
                    "replay_targets", "table_rows", "row_id_conflicts")) {
                    ddl.execute("DELETE FROM tributary." + table + " WHERE group_id = " + id);
                }
                ddl.execute("UPDATE tributary.sync_rules SET cleared_at = now() WHERE group_id = " + id);
            }
            return null;
        });
    }

    /**
     * Takes the locks that creating or dropping a group's partitions needs on their parents, in the order the
     * storage writers' transactions take theirs ({@code current_data}, then {@code bucket_data}). DDL that locked
     * {@code bucket_data} first would deadlock with a writer holding {@code current_data} and about to copy ops
     * (Postgres then aborts one of them: a deploy or clear fails while writers run).
     */
    private static void lockPartitionParents(Statement ddl) throws SQLException {
        ddl.execute("LOCK TABLE ONLY tributary.current_data, ONLY tributary.bucket_data,"
            + " ONLY tributary.bucket_parameters IN ACCESS EXCLUSIVE MODE");
    }

    private static SyncRulesGroup read(ResultSet rs) throws SQLException {
        long opId = rs.getLong(4);
        Optional<Checkpoint> checkpoint = rs.wasNull()
            ? Optional.empty()
            : Optional.of(new Checkpoint(opId, rs.getString(5), rs.getLong(6)));
        return new SyncRulesGroup(rs.getLong(1), rs.getString(2), GroupState.valueOf(rs.getString(3)), checkpoint,
            rs.getBoolean(7));
    }
}
