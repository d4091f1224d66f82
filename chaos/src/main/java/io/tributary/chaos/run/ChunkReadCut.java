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
 * again. A worker reads a chunk through one keyset query whose rows it fetches in batches, its transaction open
 * meanwhile; the fault waits until a worker's source backend is inside such a read ({@code pg_stat_activity}: the
 * worker's application name, a transaction open, the chunk query {@code SELECT "col", ... FROM ...}) and terminates
 * that backend ({@code pg_terminate_backend}: the worker's next fetch fails with SQLSTATE 57P01, the error a
 * source restart or a dropped connection gives). The attempt never completes and the chunk is read again as a new
 * attempt. Bounded: it looks for such a read for at most {@link #FIND_READ}. Not thread-safe: one per injector.
 */
final class ChunkReadCut {

    /**
     * How long it looks for a chunk read in progress: the pipeline's processes start, the planner plans and the
     * workers begin to read first (on a loaded machine, minutes).
     */
    static final Duration FIND_READ = Duration.ofSeconds(180);
    private static final Duration POLL = Duration.ofMillis(20);
    private static final String READING = "SELECT pid, application_name, left(query, 80) FROM pg_stat_activity"
        + " WHERE application_name LIKE 'tributary %snapshot-workers%' AND xact_start IS NOT NULL"
        + " AND state IN ('active', 'idle in transaction') AND query LIKE 'SELECT \"%' LIMIT 1";

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
        try (Connection c = source.connect(); Statement s = c.createStatement()) {
            do {
                try (ResultSet rs = s.executeQuery(READING)) {
                    if (rs.next()) {
                        int pid = rs.getInt(1);
                        String reader = rs.getString(2);
                        String query = rs.getString(3);
                        try (ResultSet terminated = s.executeQuery("SELECT pg_terminate_backend(" + pid + ")")) {
                            if (terminated.next() && terminated.getBoolean(1)) {
                                return "chunk read by '" + reader + "' (backend " + pid + ") terminated inside "
                                    + query + "...";
                            }
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
}
