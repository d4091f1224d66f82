package io.tributary.launcher.lifecycle;

import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.writer.TableLog;
import io.tributary.writer.TableLogLostException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Recovery of groups whose writers cannot resume on the {@code rows} log Kafka holds ({@link TableLogLostException}):
 * <ul>
 *   <li>when the log itself is gone (another cluster or topic id, an offset outside the log), every table is
 *       snapshotted again in a new window, once per new log ({@code tributary.kafka_log_rebuilds}): the table-ready
 *       markers of the old windows were in the lost log, so no group could ever be ready again otherwise;</li>
 *   <li>when the newest live group is among the lost ones, a copy of its rules is deployed: the replacement replays
 *       the log from its start. A lost group keeps serving its last checkpoint (its writers stay stopped) until the
 *       lifecycle makes its replacement ACTIVE with a checkpoint that caught up with it; older lost groups are
 *       superseded the same way by the newest group.</li>
 * </ul>
 * Runs under a session advisory lock and is idempotent, so any number of processes may run it at once or again.
 */
public final class TableLogRecovery {

    private static final Logger LOG = LoggerFactory.getLogger(TableLogRecovery.class);
    private static final long RECOVERY_LOCK = 0x7472_6962_7265_636fL; // "tribreco"
    private static final String REBUILT = "SELECT 1 FROM tributary.kafka_log_rebuilds WHERE cluster_id = ?"
        + " AND topic_id = ?";
    private static final String RECORD_REBUILD = "INSERT INTO tributary.kafka_log_rebuilds (cluster_id, topic_id,"
        + " topic) VALUES (?, ?, ?) ON CONFLICT DO NOTHING";

    /**
     * Opens a new snapshot window for every table of the source that storage knows, failing its open window first
     * (its markers were among the records Kafka lost).
     */
    @FunctionalInterface
    public interface TableRebuild {
        /**
         * @return how many windows it opened
         * @throws Exception if a table cannot be planned now (the recovery is then tried again)
         */
        int snapshotEveryTable(Connection storage) throws Exception;
    }

    /**
     * Recovery needs a rebuild by snapshot, and this process cannot make it: it does not plan snapshots, or the
     * topics are gone from the cluster (only {@code tributary recover} or a start provisions them).
     */
    public static final class UnsafeRecoveryException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        UnsafeRecoveryException(String message) {
            super(message);
        }
    }

    /** What one recovery did. */
    public record Outcome(boolean rebuilt, Optional<SyncRulesGroup> replacement) {
    }

    private TableLogRecovery() {
    }

    /**
     * Recovers from {@code lost} (the failures of the groups' writer starts).
     *
     * @param rebuild how this process snapshots every table again; empty if it does not run the snapshot planner
     * @throws UnsafeRecoveryException if the log must be rebuilt and {@code rebuild} is empty or the topic does not
     *     exist; the message is the loss and the command that recovers
     * @throws Exception what {@code rebuild} threw (nothing is recorded then; the next call tries again)
     */
    public static Outcome recover(Connection storage, Collection<TableLogLostException> lost,
                                  Optional<TableRebuild> rebuild) throws Exception {
        if (lost.isEmpty()) {
            return new Outcome(false, Optional.empty());
        }
        try (Statement lock = storage.createStatement()) {
            lock.execute("SELECT pg_advisory_lock(" + RECOVERY_LOCK + ")");
            try {
                boolean rebuilt = rebuildIfLost(storage, lost, rebuild);
                return new Outcome(rebuilt, replaceNewestIfLost(storage, lost));
            } finally {
                lock.execute("SELECT pg_advisory_unlock(" + RECOVERY_LOCK + ")");
            }
        }
    }

    private static boolean rebuildIfLost(Connection storage, Collection<TableLogLostException> lost,
                                         Optional<TableRebuild> rebuild) throws Exception {
        Optional<TableLogLostException> logLoss = lost.stream()
            .filter(e -> e.loss() == TableLogLostException.Loss.LOG).findFirst();
        if (logLoss.isEmpty()) {
            return false;
        }
        Optional<TableLog> newLog = logLoss.get().current();
        if (newLog.isEmpty()) {
            throw new UnsafeRecoveryException(logLoss.get().getMessage() + ". The topics do not exist on the"
                + " cluster now, so the table log cannot be rebuilt by this process: run `tributary recover --config"
                + " FILE` once (it provisions the topics), then start this process again");
        }
        if (rebuiltAlready(storage, newLog.get())) {
            return false;
        }
        if (rebuild.isEmpty()) {
            throw new UnsafeRecoveryException(logLoss.get().getMessage() + ". This process does not run the"
                + " snapshot planner, so it cannot rebuild the table log: run `tributary recover --config FILE`"
                + " (or a `tributary run` whose role includes the planner) once, then start this process again");
        }
        TableLog current = newLog.get();
        int opened = rebuild.get().snapshotEveryTable(storage);
        try (PreparedStatement insert = storage.prepareStatement(RECORD_REBUILD)) {
            insert.setString(1, current.clusterId());
            insert.setString(2, current.topicId());
            insert.setString(3, current.topic());
            insert.executeUpdate();
        }
        LOG.warn("The table log {} is rebuilt by snapshot: {} tables snapshotted again ({})", current, opened,
            logLoss.get().getMessage());
        return true;
    }

    private static boolean rebuiltAlready(Connection storage, TableLog log) throws SQLException {
        try (PreparedStatement select = storage.prepareStatement(REBUILT)) {
            select.setString(1, log.clusterId());
            select.setString(2, log.topicId());
            try (ResultSet rs = select.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static Optional<SyncRulesGroup> replaceNewestIfLost(Connection storage,
                                                                Collection<TableLogLostException> lost)
        throws SQLException {
        List<SyncRulesGroup> live = new ArrayList<>(SyncRulesGroups.list(storage).stream()
            .filter(group -> group.state().isLive()).toList());
        if (live.isEmpty()) {
            return Optional.empty();
        }
        SyncRulesGroup newest = live.get(live.size() - 1);
        if (lost.stream().noneMatch(e -> e.groupId() == newest.id())) {
            return Optional.empty();
        }
        SyncRulesGroup replacement = SyncRulesGroups.create(storage, newest.content());
        LOG.warn("Sync rules group {} is replaced by group {} (the same rules, replaying the table log); group {}"
            + " keeps serving its last checkpoint until then", newest.id(), replacement.id(), newest.id());
        return Optional.of(replacement);
    }
}
