package io.tributary.chaos.run;

import io.tributary.postgres.PgEndpoint;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;

/**
 * The chunk-read fault: a snapshot worker's chunk read fails while its query runs, and the worker must retry the
 * chunk. The source holds an {@code ACCESS EXCLUSIVE} lock on a table that still has chunks to read, so the next
 * chunk read of that table waits inside its query; that backend is then terminated ({@code pg_terminate_backend},
 * SQLSTATE 57P01 on the worker's side, the error a source restart or a dropped connection gives) and the lock
 * released. The worker sees its chunk query fail, its attempt never completes, and the chunk is read again.
 * Bounded: it waits at most {@link #FIND_CHUNKS} for a table with chunks left and holds the lock at most
 * {@link #HOLD}; workload writes to the table wait meanwhile. Not thread-safe: one per injector.
 */
final class ChunkReadCut {

    /** How long it looks for a table whose snapshot still has chunks to read. */
    static final Duration FIND_CHUNKS = Duration.ofSeconds(20);
    /** How long it holds the lock waiting for a chunk read of the table. */
    static final Duration HOLD = Duration.ofSeconds(10);
    private static final Duration POLL = Duration.ofMillis(50);
    private static final String PENDING = "SELECT table_schema, table_name FROM tributary.snapshot_chunks"
        + " WHERE state <> 'DONE' GROUP BY table_schema, table_name ORDER BY count(*) DESC LIMIT 1";
    private static final String WAITING_READ = "SELECT pid, application_name FROM pg_stat_activity"
        + " WHERE application_name LIKE 'tributary %snapshot-workers%' AND wait_event_type = 'Lock'"
        + " AND query LIKE 'SELECT %' AND query LIKE '%' || ? || '%' LIMIT 1";

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
            Optional<String> table = tableWithChunksLeft();
            if (table.isEmpty()) {
                return InjectedFault.SKIPPED + "no snapshot chunk left to read within " + FIND_CHUNKS.toSeconds()
                    + " s";
            }
            for (int attempt = 1; ; attempt++) {
                try {
                    return cutReadOf(table.get());
                } catch (SQLException e) {
                    // the lock waits behind the workload's open transactions: lock_timeout, then again
                    if (attempt >= 3 || !"55P03".equals(e.getSQLState())) {
                        throw e;
                    }
                }
            }
        } catch (SQLException e) {
            return InjectedFault.SKIPPED + "the chunk read cut failed: " + e.getMessage();
        }
    }

    private Optional<String> tableWithChunksLeft() throws SQLException {
        long deadline = System.nanoTime() + FIND_CHUNKS.toNanos();
        try (Connection c = storage.connect(); Statement s = c.createStatement()) {
            do {
                try (ResultSet rs = s.executeQuery(PENDING)) {
                    if (rs.next()) {
                        return Optional.of(quote(rs.getString(1)) + "." + quote(rs.getString(2)));
                    }
                }
                LockSupport.parkNanos(POLL.toNanos());
            } while (System.nanoTime() < deadline);
        }
        return Optional.empty();
    }

    private String cutReadOf(String table) throws SQLException {
        try (Connection c = source.connect(); Statement s = c.createStatement();
             PreparedStatement waiting = c.prepareStatement(WAITING_READ)) {
            c.setAutoCommit(false);
            s.execute("SET LOCAL lock_timeout = '5s'");
            s.execute("LOCK TABLE " + table + " IN ACCESS EXCLUSIVE MODE");
            try {
                waiting.setString(1, table);
                long deadline = System.nanoTime() + HOLD.toNanos();
                do {
                    try (ResultSet rs = waiting.executeQuery()) {
                        if (rs.next()) {
                            int pid = rs.getInt(1);
                            String reader = rs.getString(2);
                            s.execute("SELECT pg_terminate_backend(" + pid + ")");
                            return "chunk read of " + table + " by '" + reader + "' (backend " + pid
                                + ") terminated inside its query";
                        }
                    }
                    LockSupport.parkNanos(POLL.toNanos());
                } while (System.nanoTime() < deadline);
                return InjectedFault.SKIPPED + "no chunk read of " + table + " within " + HOLD.toSeconds() + " s";
            } finally {
                c.rollback();
            }
        }
    }

    private static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }
}
