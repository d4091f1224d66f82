package io.tributary.chaos.run;

import io.tributary.postgres.PgEndpoint;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * The chunk-read fault: a snapshot worker's chunk read fails while its query runs, and the worker must retry the
 * chunk. The source holds an {@code ACCESS EXCLUSIVE} lock on every table whose snapshot the workers are reading
 * (a chunk of its window done, others not), so the next chunk read of one of them waits inside its query; that
 * backend is then terminated ({@code pg_terminate_backend}, SQLSTATE 57P01 on the worker's side, the error a source
 * restart or a dropped connection gives) and the locks released. The worker sees its chunk query fail, its attempt
 * never completes, and the chunk is read again. Tables whose window has no chunk done yet are left alone: the
 * planner may still be reading them while it plans, and would wait on the lock instead of handing their chunks out.
 * Bounded: it waits at most {@link #FIND_CHUNKS} for such tables and holds the locks at most {@link #HOLD};
 * workload writes to those tables wait meanwhile. Not thread-safe: one per injector.
 */
final class ChunkReadCut {

    /**
     * How long it looks for tables whose snapshot still has chunks to read while the workers read: the pipeline's
     * processes start, the planner plans and the workers read their first chunk first (on a loaded machine, minutes).
     */
    static final Duration FIND_CHUNKS = Duration.ofSeconds(150);
    /** How long it holds the locks waiting for a chunk read of one of the tables. */
    static final Duration HOLD = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(50);
    /**
     * Tables whose window the workers read (a chunk is done, so the planner has handed them out and no longer reads
     * the table) with chunks left.
     */
    private static final String PENDING = "SELECT DISTINCT table_schema, table_name FROM tributary.snapshot_chunks"
        + " GROUP BY table_schema, table_name, window_id HAVING bool_or(state = 'DONE') AND bool_or(state <> 'DONE')"
        + " ORDER BY table_schema, table_name";
    private static final String WAITING_READ = "SELECT pid, application_name, query FROM pg_stat_activity"
        + " WHERE application_name LIKE 'tributary %snapshot-workers%' AND wait_event_type = 'Lock'"
        + " AND query LIKE 'SELECT %' LIMIT 1";

    private final PgEndpoint source;
    private final PgEndpoint storage;

    ChunkReadCut(PgEndpoint source, PgEndpoint storage) {
        this.source = source;
        this.storage = storage;
    }

    /**
     * Cuts one chunk read.
     *
     * @return what it did, for the report; starts with {@link InjectedFault#SKIPPED} if no chunk read was cut
     */
    String cut() {
        try {
            List<String> tables = tablesWithChunksLeft();
            if (tables.isEmpty()) {
                return InjectedFault.SKIPPED + "no snapshot chunk left to read within " + FIND_CHUNKS.toSeconds()
                    + " s";
            }
            for (int attempt = 1; ; attempt++) {
                try {
                    return cutReadOf(tables);
                } catch (SQLException e) {
                    // the locks wait behind the workload's open transactions: lock_timeout or a deadlock, then again
                    if (attempt >= 3 || !("55P03".equals(e.getSQLState()) || "40P01".equals(e.getSQLState()))) {
                        throw e;
                    }
                }
            }
        } catch (SQLException e) {
            return InjectedFault.SKIPPED + "the chunk read cut failed: " + e.getMessage();
        }
    }

    private List<String> tablesWithChunksLeft() throws SQLException {
        long deadline = System.nanoTime() + FIND_CHUNKS.toNanos();
        List<String> tables = new ArrayList<>();
        try (Connection c = storage.connect(); Statement s = c.createStatement()) {
            do {
                try (ResultSet rs = s.executeQuery(PENDING)) {
                    while (rs.next()) {
                        tables.add(quote(rs.getString(1)) + "." + quote(rs.getString(2)));
                    }
                }
                if (!tables.isEmpty()) {
                    return tables;
                }
                LockSupport.parkNanos(POLL.toNanos());
            } while (System.nanoTime() < deadline);
        }
        return tables;
    }

    private String cutReadOf(List<String> tables) throws SQLException {
        try (Connection c = source.connect(); Statement s = c.createStatement();
             PreparedStatement waiting = c.prepareStatement(WAITING_READ)) {
            c.setAutoCommit(false);
            s.execute("SET LOCAL lock_timeout = '10s'");
            s.execute("LOCK TABLE " + String.join(", ", tables) + " IN ACCESS EXCLUSIVE MODE");
            try {
                long deadline = System.nanoTime() + HOLD.toNanos();
                do {
                    try (ResultSet rs = waiting.executeQuery()) {
                        if (rs.next()) {
                            int pid = rs.getInt(1);
                            String reader = rs.getString(2);
                            // pg_stat_activity keeps the first track_activity_query_size bytes of the query
                            String read = tables.stream().filter(rs.getString(3)::contains).findFirst()
                                .orElse("one of " + tables);
                            s.execute("SELECT pg_terminate_backend(" + pid + ")");
                            return "chunk read of " + read + " by '" + reader + "' (backend " + pid
                                + ") terminated inside its query";
                        }
                    }
                    LockSupport.parkNanos(POLL.toNanos());
                } while (System.nanoTime() < deadline);
                return InjectedFault.SKIPPED + "no chunk read of " + tables + " within " + HOLD.toSeconds() + " s";
            } finally {
                c.rollback();
            }
        }
    }

    private static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }
}
