package io.tributary.chaos.check;

import io.tributary.postgres.PgEndpoint;
import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.topics.messages.Lsn;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;

/**
 * Invariant 6 after the workload stops: the source is quiet, so its WAL position is final for the data, and the
 * newest group must be ACTIVE with a checkpoint that reaches it.
 */
public final class Quiescence {

    private static final Duration POLL = Duration.ofMillis(500);

    private Quiescence() {
    }

    /** The source's {@code pg_current_wal_lsn()} now. */
    public static Lsn sourcePosition(PgEndpoint source) throws SQLException {
        try (Connection c = source.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT pg_current_wal_lsn()::text")) {
            rs.next();
            return Lsn.parse(rs.getString(1));
        }
    }

    /**
     * Waits until the newest group is ACTIVE with a checkpoint at or after {@code position}.
     *
     * @return that group, or empty on timeout
     */
    public static Optional<SyncRulesGroup> awaitCheckpoint(PgEndpoint storage, Lsn position, Duration timeout)
        throws SQLException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<SyncRulesGroup> newest = newestGroup(storage);
            if (newest.isPresent() && newest.get().state() == GroupState.ACTIVE && newest.get().checkpoint()
                .filter(c -> !Lsn.parse(c.lsn()).isBefore(position)).isPresent()) {
                return newest;
            }
            if (System.nanoTime() > deadline) {
                return Optional.empty();
            }
            LockSupport.parkNanos(POLL.toNanos());
        }
    }

    /** {@code group 1 PROCESSING, checkpoint Checkpoint[...]} (or {@code no group}): for mismatch messages. */
    public static String describeNewestGroup(PgEndpoint storage) throws SQLException {
        return newestGroup(storage).map(g -> "group " + g.id() + " " + g.state() + ", checkpoint "
            + g.checkpoint().map(Object::toString).orElse("none")).orElse("no group");
    }

    /** The newest sync rules group, if one was deployed. */
    public static Optional<SyncRulesGroup> newestGroup(PgEndpoint storage) throws SQLException {
        try (Connection c = storage.connect()) {
            List<SyncRulesGroup> groups = SyncRulesGroups.list(c);
            return groups.isEmpty() ? Optional.empty() : Optional.of(groups.get(groups.size() - 1));
        } catch (SQLException e) {
            if ("42P01".equals(e.getSQLState()) || "3F000".equals(e.getSQLState())) {
                return Optional.empty();
            }
            throw e;
        }
    }
}
