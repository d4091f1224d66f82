package io.tributary.bench.streaming;

import io.tributary.postgres.PgEndpoint;
import io.tributary.topics.messages.Lsn;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Commits small update transactions at a fixed rate of changes per second over {@code public.items} (ids cycling
 * through 1 to {@code rows}) and records, per transaction, when its commit returned and
 * {@code pg_current_wal_lsn()} read right after it. A writer that falls behind its schedule does not sleep until
 * it caught up, so the achieved rate shows whether the source kept up. Not thread-safe.
 */
final class PacedWriter {

    /** One committed transaction: when the commit returned ({@link System#nanoTime()}) and the WAL end after it. */
    record Commit(long nanos, Lsn lsn) {
    }

    private final PgEndpoint source;
    private final long rows;
    private final int transactionRows;

    PacedWriter(PgEndpoint source, long rows, int transactionRows) {
        if (transactionRows < 1 || rows < transactionRows) {
            throw new IllegalArgumentException("need 1 <= transaction rows <= rows: " + transactionRows + ", " + rows);
        }
        this.source = source;
        this.rows = rows;
        this.transactionRows = transactionRows;
    }

    /** Writes {@code changesPerSecond} for {@code duration}; returns every commit in order. */
    List<Commit> write(int changesPerSecond, Duration duration) throws SQLException {
        long interval = 1_000_000_000L * transactionRows / changesPerSecond;
        long transactions = duration.toNanos() / interval;
        List<Commit> commits = new ArrayList<>((int) transactions);
        try (Connection c = source.connect(); Statement s = c.createStatement()) {
            c.setAutoCommit(true);
            long start = System.nanoTime();
            long first = 1;
            for (long i = 0; i < transactions; i++) {
                long due = start + i * interval;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
                s.executeUpdate("UPDATE public.items SET n = n + 1 WHERE id BETWEEN " + first + " AND "
                    + (first + transactionRows - 1));
                long committed = System.nanoTime();
                try (ResultSet rs = s.executeQuery("SELECT pg_current_wal_lsn()::text")) {
                    rs.next();
                    commits.add(new Commit(committed, Lsn.parse(rs.getString(1))));
                }
                first += transactionRows;
                if (first + transactionRows - 1 > rows) {
                    first = 1;
                }
            }
        }
        return commits;
    }
}
