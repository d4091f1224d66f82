package io.tributary.chaos.run;

import io.tributary.postgres.PgEndpoint;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * The chunk-read fault: a snapshot worker's chunk read fails in the middle, and the worker must read the chunk
 * again. A worker reads the chunks of a poll in one source transaction (a description of their tables, then per
 * chunk one keyset query whose rows it fetches in batches, then its high watermark); the fault waits until a
 * worker's source backend is inside such a transaction ({@code pg_stat_activity}: the worker's application name, a
 * transaction open), preferring for {@link #PREFER_QUERY} one inside a chunk query ({@code SELECT "col", ... FROM
 * ...}), and terminates that backend ({@code pg_terminate_backend}: the worker's next statement or fetch fails with
 * SQLSTATE 57P01, the error a source restart or a dropped connection gives). The attempts it was reading never
 * complete and their chunks are read again as new attempts. A chunk query of a small table lasts milliseconds,
 * while the transaction around the chunks of a poll lasts far longer than the poll interval, so a snapshot of
 * seconds is not missed. Bounded: it
 * looks for such a read for at most {@link #FIND_READ}. Not thread-safe: one per injector.
 */
final class ChunkReadCut {

    /**
     * How long it looks for a chunk read in progress: the pipeline's processes start, the planner plans and the
     * workers begin to read first (on a loaded machine, minutes).
     */
    static final Duration FIND_READ = Duration.ofSeconds(180);
    /** Once a read transaction is seen, how long it waits for one inside a chunk query before cutting any. */
    private static final Duration PREFER_QUERY = Duration.ofSeconds(2);
    private static final Duration POLL = Duration.ofMillis(20);
    private static final String READING = "SELECT pid, application_name, left(query, 80) FROM pg_stat_activity"
        + " WHERE application_name LIKE 'tributary %snapshot-workers%' AND xact_start IS NOT NULL"
        + " AND state IN ('active', 'idle in transaction') ORDER BY query LIKE 'SELECT \"%' DESC LIMIT 1";

    private final PgEndpoint source;

    ChunkReadCut(PgEndpoint source) {
        this.source = source;
    }

    /**
     * Cuts one chunk read.
     *
     * @return what it did, for the report; starts with {@link InjectedFault#SKIPPED} if no chunk read was cut
     */
    String cut() {
        long deadline = System.nanoTime() + FIND_READ.toNanos();
        long settleFor = -1;
        try (Connection c = source.connect(); Statement s = c.createStatement()) {
            do {
                try (ResultSet rs = s.executeQuery(READING)) {
                    if (rs.next()) {
                        boolean chunkQuery = rs.getString(3).startsWith("SELECT \"");
                        if (settleFor < 0) {
                            settleFor = System.nanoTime() + PREFER_QUERY.toNanos();
                        }
                        if (chunkQuery || System.nanoTime() - settleFor > 0) {
                            return terminate(s, rs.getInt(1), rs.getString(2), rs.getString(3));
                        }
                    }
                }
                LockSupport.parkNanos(POLL.toNanos());
            } while (System.nanoTime() < deadline);
        } catch (SQLException e) {
            return InjectedFault.SKIPPED + "the chunk read cut failed: " + e.getMessage();
        }
        return InjectedFault.SKIPPED + "no chunk read in progress within " + FIND_READ.toSeconds() + " s";
    }

    private static String terminate(Statement s, int pid, String reader, String query) throws SQLException {
        try (ResultSet terminated = s.executeQuery("SELECT pg_terminate_backend(" + pid + ")")) {
            if (terminated.next() && terminated.getBoolean(1)) {
                return "chunk read by '" + reader + "' (backend " + pid + ") terminated at " + query + "...";
            }
        }
        return InjectedFault.SKIPPED + "the chunk read by '" + reader + "' (backend " + pid + ") ended before it"
            + " was terminated";
    }
}
