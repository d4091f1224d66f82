package io.tributary.api.stream;

import io.tributary.postgres.LazyConnection;
import io.tributary.postgres.PgEndpoint;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A fixed number of storage connections shared by every stream of the process: a stream borrows one per read
 * (a checksum step, a page of ops) and gives it back, so storage sees at most {@code size} connections however
 * many clients are connected. A connection that failed is discarded and reopened on next use.
 *
 * <p>Thread-safe.
 */
public final class StoragePool implements AutoCloseable {

    private final BlockingQueue<LazyConnection> idle;
    private final Duration borrowTimeout;

    /**
     * @param size          the number of connections, &gt; 0
     * @param borrowTimeout how long a read waits for a free connection before it fails
     */
    public StoragePool(PgEndpoint storage, int size, Duration borrowTimeout) {
        if (size <= 0) {
            throw new IllegalArgumentException("Pool size must be > 0: " + size);
        }
        this.idle = new ArrayBlockingQueue<>(size);
        this.borrowTimeout = borrowTimeout;
        for (int i = 0; i < size; i++) {
            idle.add(new LazyConnection(storage, new Properties(), StoragePool::readsInKeyOrder));
        }
    }

    /**
     * Turns bitmap scans off for the connection's session. A page of a bucket's ops ({@code ORDER BY op_id LIMIT n}
     * over an op range whose bounds are only known per bucket) is right only as an index range scan that stops after
     * the page; when the planner estimates fewer rows in the range than the page holds (its default for such a range
     * is 0.5% of the partition, so any partition under 200,000 ops per 1,000-op page, e.g. right after a compaction
     * and its vacuum), it reads the whole range through a bitmap and sorts it instead, so each page reads every op
     * after it. The API's other reads are index lookups and ranges too.
     */
    private static void readsInKeyOrder(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET enable_bitmapscan = off");
        }
    }

    /** Work done on a borrowed connection. */
    @FunctionalInterface
    public interface Work<T> {
        /** Runs on {@code connection} (auto-commit). */
        T run(Connection connection) throws SQLException;
    }

    /**
     * Runs {@code work} on a borrowed connection.
     *
     * @throws SQLException from the work (the connection is then discarded), or when no connection frees up in
     *                      time (SQLSTATE 53300, retriable)
     */
    public <T> T withConnection(Work<T> work) throws SQLException {
        LazyConnection lease;
        try {
            lease = idle.poll(borrowTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("Interrupted while waiting for a storage connection", "57014", e);
        }
        if (lease == null) {
            throw new SQLException("No storage connection free within " + borrowTimeout.toMillis()
                + " ms: raise api.storage_connections or add api processes", "53300");
        }
        try {
            return work.run(lease.get());
        } catch (SQLException | RuntimeException e) {
            lease.discard();
            throw e;
        } finally {
            idle.add(lease);
        }
    }

    @Override
    public void close() {
        LazyConnection connection;
        while ((connection = idle.poll()) != null) {
            connection.close();
        }
    }
}
