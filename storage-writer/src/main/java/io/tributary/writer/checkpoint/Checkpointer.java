package io.tributary.writer.checkpoint;

import io.tributary.storage.checkpoint.Checkpoints;
import io.tributary.storage.groups.Checkpoint;
import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.LoadPhase;
import io.tributary.storage.progress.RowIdConflicts;
import io.tributary.syncrules.SyncRules;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.TableId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes a group's checkpoint when it can advance ({@link CheckpointMath}): in one short transaction of its
 * own, reads the seals above the current checkpoint (incrementally, {@link SealLog}), the tables the group reads
 * and their readiness, and moves
 * {@code sync_rules.checkpoint_*} forward with a compare-and-set ({@code checkpoint_epoch < k}), notifying
 * {@value Checkpoints#CHANNEL}. Any number of checkpointers may run for one group: updates are monotonic, so
 * concurrent ones are harmless. Then prunes seals below the published epoch.
 *
 * <p>Nothing is published before the snapshot planner marked the group planned ({@code sync_rules.planned_at}):
 * the tables a group must wait for are those with a snapshot window, and until a planning round that saw the group
 * has stored a window for every table its rules match, a table without one would hold nothing. The planner
 * replaces an interrupted window in the transaction that opens its successor, so a planned group's tables never
 * lose their window.
 *
 * <p>The group's first checkpoint also waits until, in every partition, the barrier of its epoch lies at or after
 * where {@code rows} ended when the group's writers first started ({@link ReplayTargets}): compaction keeps only the
 * newest barrier of the range it cleaned and drops older versions of keys rewritten after it, so an earlier barrier
 * of a replay can stand for a state that never existed. Later checkpoints read what was written after the start.
 *
 * <p>The transaction that publishes the group's first checkpoint ends its load phase first ({@link LoadPhase#finish}:
 * the key of its {@code bucket_data} table is built and the table attached again), so no checkpoint is ever
 * published over ops without their key; a failure there publishes nothing and the next round tries again.
 *
 * <p>A table whose newest snapshot window FAILED (no key, unsupported column, oversized row: an operator must fix
 * it, and a fixed table gets a new window) holds nothing: it can never become ready, and holding would stop the
 * group's every other table. {@code tributary status} shows the failure.
 *
 * <p>A table the group's writers applied rows of ({@code table_rows}) but that has no window at all (created, or
 * first matched by a wildcard, after the group was planned) holds every checkpoint that includes some of those
 * rows until the planner stored its window, which then holds them until it is ready.
 *
 * <p>While a table's readiness held the previous attempt, an attempt checks readiness first and stops there if a
 * table still holds, without reading {@code table_rows} (a read of every table the group has rows of); a candidate
 * that passes is checked in full, {@code table_rows} before the windows as always. During a snapshot of many tables
 * the attempts (one per new sealed epoch) read the windows and the readiness of the tables not yet passed, and no
 * longer every table's {@code table_rows} in every partition each time.
 *
 * <p>A full check of the tables also remembers the table furthest from ready among those holding (the fewest
 * partitions ready for its window; the last of them in table order). The next attempts first check that table
 * alone, by its key: while its newest window is the same and not FAILED, and it is not ready for the candidate,
 * the full check would hold too, so the attempt stops there. Only once it passes are the windows of every table
 * and the readiness of those not passed read again. During a snapshot of many tables an attempt therefore costs two
 * indexed reads instead of a read of every window and of the readiness of every table not yet passed.
 *
 * <p>A group whose rules read a table with an id that is not its primary key ({@link RowIdConflicts}, found by the
 * planner for a table created or matched after deploy) publishes nothing until that is resolved.
 *
 * <p>Not thread-safe: one per thread; the connection (auto-commit off) is the caller's.
 */
public final class Checkpointer {

    private static final Logger LOG = LoggerFactory.getLogger(Checkpointer.class);

    private static final String CURRENT = "SELECT checkpoint_epoch, planned_at IS NOT NULL FROM tributary.sync_rules"
        + " WHERE group_id = ?";
    private static final String STATE = "SELECT state FROM tributary.sync_rules WHERE group_id = ?";
    private static final String TABLES = "SELECT table_schema, table_name, window_id FROM (SELECT DISTINCT ON"
        + " (table_schema, table_name) table_schema, table_name, window_id, state FROM tributary.source_tables"
        + " ORDER BY table_schema, table_name, started_at DESC, window_id DESC) newest WHERE state <> 'FAILED'";
    private static final String UNPLANNED = "SELECT r.table_schema, r.table_name, min(r.seen_after_epoch)"
        + " FROM tributary.table_rows r WHERE r.group_id = ? AND NOT EXISTS (SELECT 1 FROM tributary.source_tables t"
        + " WHERE t.table_schema = r.table_schema AND t.table_name = r.table_name)"
        + " GROUP BY r.table_schema, r.table_name ORDER BY r.table_schema, r.table_name";
    private static final String READINESS = "SELECT r.partition, r.table_schema, r.table_name, r.window_id,"
        + " r.high_watermark::text, r.ready_after_epoch FROM tributary.table_readiness r WHERE r.group_id = ?"
        + " AND (r.table_schema, r.table_name) IN (SELECT u.s, u.t FROM unnest(?::text[], ?::text[]) AS u(s, t))";
    private static final String NEWEST_WINDOW = "SELECT window_id, state FROM tributary.source_tables"
        + " WHERE table_schema = ? AND table_name = ? ORDER BY started_at DESC, window_id DESC LIMIT 1";
    private static final String TABLE_READINESS = "SELECT r.partition, r.table_schema, r.table_name, r.window_id,"
        + " r.high_watermark::text, r.ready_after_epoch FROM generate_series(0, ? - 1) AS p JOIN"
        + " tributary.table_readiness r ON r.group_id = ? AND r.partition = p AND r.table_schema = ?"
        + " AND r.table_name = ?";
    private static final String PUBLISH = "UPDATE tributary.sync_rules SET checkpoint_op_id = ?,"
        + " checkpoint_lsn = ?::pg_lsn, checkpoint_epoch = ?, checkpoint_at = now()"
        + " WHERE group_id = ? AND (checkpoint_epoch IS NULL OR checkpoint_epoch < ?)";
    private static final String NOTIFY = "SELECT pg_notify('" + Checkpoints.CHANNEL + "', ?)";
    private static final String PRUNE = "DELETE FROM tributary.sealed_epochs WHERE group_id = ? AND epoch < ?";

    private final long groupId;
    private final int partitions;
    private final SyncRules rules;
    private final SealLog seals;
    private final Map<TableId, String> passed = new HashMap<>();
    private final Map<TableId, Boolean> reads = new HashMap<>();
    private String lastHeldBy = "";
    private boolean tableHeld = true;
    private Optional<RequiredTable> holder = Optional.empty();
    private Map<Integer, Long> replayTargets = Map.of();

    /** A checkpointer of group {@code groupId}, whose rules are {@code rules}, over {@code partitions} partitions. */
    public Checkpointer(long groupId, int partitions, SyncRules rules) {
        this.groupId = groupId;
        this.partitions = partitions;
        this.rules = Objects.requireNonNull(rules, "rules");
        this.seals = new SealLog(groupId, partitions);
    }

    /**
     * Publishes the newest checkpoint the group may have, if it is newer than the current one.
     *
     * @return the checkpoint this call published, empty if none (nothing new, held by a table, or another
     *         checkpointer was first)
     */
    public Optional<Checkpoint> advance(Connection connection) throws SQLException {
        Optional<Checkpoint> published;
        long epoch;
        try {
            Current current = current(connection);
            List<SealRow> above = seals.above(connection, current.epoch());
            Optional<EpochCandidate> candidate = CheckpointMath.latestCommonEpoch(above, partitions,
                current.epoch());
            if (candidate.isEmpty()) {
                connection.commit();
                return Optional.empty();
            }
            if (!current.planned()) {
                connection.commit();
                logHeld("the snapshot of group " + groupId + " is not planned yet");
                return Optional.empty();
            }
            Optional<String> heldBy = RowIdConflicts.first(connection, groupId);
            if (heldBy.isEmpty() && current.epoch() < 0) {
                heldBy = CheckpointMath.heldByReplayTargets(candidate.get().epoch(), above, replayTargets(connection));
            }
            if (heldBy.isEmpty() && tableHeld) {
                // while a table held the last attempt (a snapshot runs), it most likely still holds: a held
                // candidate is settled without reading table_rows, which costs more the more tables the group has
                heldBy = tableGate(connection, candidate.get());
            }
            if (heldBy.isEmpty()) {
                // before the windows: a window the planner stores in between is then read as required
                heldBy = CheckpointMath.heldByUnplanned(candidate.get(), unplannedTables(connection));
            }
            if (heldBy.isEmpty()) {
                heldBy = tableGate(connection, candidate.get());
                tableHeld = heldBy.isPresent();
            }
            if (heldBy.isPresent()) {
                connection.commit();
                logHeld(heldBy.get());
                return Optional.empty();
            }
            logHeld("");
            if (current.epoch() < 0 && LoadPhase.finish(connection, groupId)) {
                LOG.info("Group {}: load phase over, key of {} built", groupId, LoadPhase.bucketData(groupId));
            }
            published = publish(connection, candidate.get());
            epoch = candidate.get().epoch();
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        }
        if (published.isPresent()) {
            prune(connection, epoch);
        }
        return published;
    }

    /**
     * Whether the group is still PROCESSING or ACTIVE (its writers should keep writing), in a short transaction of its
     * own.
     */
    public boolean groupIsLive(Connection connection) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(STATE)) {
            select.setLong(1, groupId);
            try (ResultSet rs = select.executeQuery()) {
                return rs.next() && GroupState.valueOf(rs.getString(1)).isLive();
            }
        } finally {
            connection.commit();
        }
    }

    /** The group's published epoch ({@code -1}: none) and whether the planner has planned its tables. */
    private record Current(long epoch, boolean planned) {
    }

    private Current current(Connection connection) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(CURRENT)) {
            select.setLong(1, groupId);
            try (ResultSet rs = select.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("Sync rules group " + groupId + " does not exist", "02000");
                }
                long epoch = rs.getLong(1);
                return new Current(rs.wasNull() ? -1 : epoch, rs.getBoolean(2));
            }
        }
    }

    /** The group's replay targets, read once (they never change once written; none means none were captured). */
    private Map<Integer, Long> replayTargets(Connection connection) throws SQLException {
        if (replayTargets.isEmpty()) {
            replayTargets = ReplayTargets.read(connection, groupId);
        }
        return replayTargets;
    }

    /**
     * The tables the group has rows of but no snapshot window. Read after the seals, so every table with rows in a
     * sealed epoch is among them or has a window; and before {@link #requiredTables}, so a window stored in between
     * is required there (windows are never removed, only replaced).
     */
    private List<UnplannedTable> unplannedTables(Connection connection) throws SQLException {
        List<UnplannedTable> tables = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement(UNPLANNED)) {
            select.setLong(1, groupId);
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    tables.add(new UnplannedTable(TableId.of(rs.getString(1), rs.getString(2)), rs.getLong(3)));
                }
            }
        }
        return tables;
    }

    /**
     * Why {@code candidate} is held by a table's readiness, or empty. Readiness is read only for the tables whose
     * newest window has not passed an earlier candidate ({@link CheckpointMath.Gate}): each readiness row is read
     * about once, not once per checkpoint.
     */
    private Optional<String> tableGate(Connection connection, EpochCandidate candidate) throws SQLException {
        Optional<String> heldByHolder = holderGate(connection, candidate);
        if (heldByHolder.isPresent()) {
            return heldByHolder;
        }
        List<RequiredTable> unchecked = requiredTables(connection).stream()
            .filter(t -> !t.windowId().equals(passed.get(t.table()))).toList();
        if (unchecked.isEmpty()) {
            return Optional.empty();
        }
        List<TableReadiness> readiness = readiness(connection, unchecked);
        CheckpointMath.Gate gate = CheckpointMath.gate(candidate, unchecked, readiness, partitions);
        gate.passed().forEach(t -> passed.put(t.table(), t.windowId()));
        if (gate.heldBy().isPresent()) {
            holder = furthestFromReady(unchecked, readiness);
        }
        return gate.heldBy();
    }

    /**
     * Why {@code candidate} is held by the remembered {@link #holder}, checked alone: empty if there is none, its
     * newest window changed, or it does not hold any more (it is then forgotten).
     */
    private Optional<String> holderGate(Connection connection, EpochCandidate candidate) throws SQLException {
        if (holder.isEmpty()) {
            return Optional.empty();
        }
        RequiredTable table = holder.get();
        holder = Optional.empty();
        if (!isNewestOpenOrDone(connection, table)) {
            return Optional.empty();
        }
        CheckpointMath.Gate gate = CheckpointMath.gate(candidate, List.of(table), tableReadiness(connection, table),
            partitions);
        if (gate.heldBy().isPresent()) {
            holder = Optional.of(table);
        } else {
            passed.put(table.table(), table.windowId());
        }
        return gate.heldBy();
    }

    /** Whether {@code table}'s window is still its table's newest, and not FAILED (so the table is required). */
    private static boolean isNewestOpenOrDone(Connection connection, RequiredTable table) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(NEWEST_WINDOW)) {
            select.setString(1, table.table().schema());
            select.setString(2, table.table().name());
            try (ResultSet rs = select.executeQuery()) {
                return rs.next() && rs.getString(1).equals(table.windowId()) && !"FAILED".equals(rs.getString(2));
            }
        }
    }

    /**
     * Of the tables not passed, the one with the fewest partitions ready for its window (the last of them in
     * {@code tables}' order): the one likely to hold longest.
     */
    private Optional<RequiredTable> furthestFromReady(List<RequiredTable> tables, List<TableReadiness> readiness) {
        Map<TableId, Integer> ready = new HashMap<>();
        Map<TableId, String> windows = new HashMap<>();
        tables.forEach(t -> windows.put(t.table(), t.windowId()));
        for (TableReadiness row : readiness) {
            if (row.windowId().equals(windows.get(row.table()))) {
                ready.merge(row.table(), 1, Integer::sum);
            }
        }
        RequiredTable furthest = null;
        int fewest = Integer.MAX_VALUE;
        for (RequiredTable table : tables) {
            int count = ready.getOrDefault(table.table(), 0);
            if (!table.windowId().equals(passed.get(table.table())) && count <= fewest) {
                furthest = table;
                fewest = count;
            }
        }
        return Optional.ofNullable(furthest);
    }

    private List<RequiredTable> requiredTables(Connection connection) throws SQLException {
        List<RequiredTable> tables = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement(TABLES);
             ResultSet rs = select.executeQuery()) {
            while (rs.next()) {
                TableId table = TableId.of(rs.getString(1), rs.getString(2));
                if (reads.computeIfAbsent(table, t -> rules.reads(t.schema() + "." + t.name()))) {
                    tables.add(new RequiredTable(table, rs.getString(3)));
                }
            }
        }
        return tables;
    }

    private List<TableReadiness> readiness(Connection connection, List<RequiredTable> tables) throws SQLException {
        List<TableReadiness> readiness = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement(READINESS)) {
            select.setLong(1, groupId);
            select.setArray(2, connection.createArrayOf("text", tables.stream().map(t -> t.table().schema())
                .toArray()));
            select.setArray(3, connection.createArrayOf("text", tables.stream().map(t -> t.table().name())
                .toArray()));
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    readiness.add(readinessRow(rs));
                }
            }
        }
        return readiness;
    }

    private List<TableReadiness> tableReadiness(Connection connection, RequiredTable table) throws SQLException {
        List<TableReadiness> readiness = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement(TABLE_READINESS)) {
            select.setInt(1, partitions);
            select.setLong(2, groupId);
            select.setString(3, table.table().schema());
            select.setString(4, table.table().name());
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    readiness.add(readinessRow(rs));
                }
            }
        }
        return readiness;
    }

    private static TableReadiness readinessRow(ResultSet rs) throws SQLException {
        return new TableReadiness(rs.getInt(1), TableId.of(rs.getString(2), rs.getString(3)), rs.getString(4),
            Lsn.parse(rs.getString(5)), rs.getLong(6));
    }

    private Optional<Checkpoint> publish(Connection connection, EpochCandidate candidate) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(PUBLISH)) {
            update.setLong(1, candidate.opId());
            update.setString(2, candidate.lsn().toString());
            update.setLong(3, candidate.epoch());
            update.setLong(4, groupId);
            update.setLong(5, candidate.epoch());
            if (update.executeUpdate() == 0) {
                return Optional.empty();
            }
        }
        try (PreparedStatement notify = connection.prepareStatement(NOTIFY)) {
            notify.setString(1, Long.toString(groupId));
            notify.executeQuery().close();
        }
        return Optional.of(new Checkpoint(candidate.opId(), candidate.lsn().toString(), candidate.epoch()));
    }

    private void prune(Connection connection, long epoch) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement(PRUNE)) {
            delete.setLong(1, groupId);
            delete.setLong(2, epoch);
            delete.executeUpdate();
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        }
    }

    private void logHeld(String heldBy) {
        if (!heldBy.equals(lastHeldBy)) {
            if (heldBy.isEmpty()) {
                LOG.info("Group {}: checkpoints advance again", groupId);
            } else {
                LOG.info("Group {}: checkpoint held: {}", groupId, heldBy);
            }
            lastHeldBy = heldBy;
        }
    }
}
