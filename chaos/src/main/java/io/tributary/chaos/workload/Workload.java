package io.tributary.chaos.workload;

import io.tributary.postgres.PgEndpoint;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Seeded concurrent writers against the source. Each writer thread has its own connection and
 * {@code Random(seed, writer)}, and loops: pick a transaction (a single insert, update, delete or primary key
 * change, a transfer between two accounts, or a mix of two to six of them; writes to tenant tables once they exist),
 * commit it (a quarter of them with {@code synchronous_commit = off}), pace. The optional long
 * writer opens a transaction, transfers and updates, keeps it open for 1.5 to 5 seconds while the others commit,
 * then commits. Conflicts roll the transaction back, so every transfer commits whole or not at all.
 *
 * <p>The seed fixes each writer's sequence of choices, not the interleaving of writers.
 * {@link #start()} once, {@link #stop()} once; thread-safe.
 */
public final class Workload implements AutoCloseable {

    /** Unique violation, deadlock, serialization failure, and a tenant table or schema not created yet. */
    private static final List<String> EXPECTED_CONFLICTS = List.of("23505", "40P01", "40001", "42P01", "3F000");
    private static final int MAX_RECORDED_ERRORS = 5;

    private final PgEndpoint source;
    private final WorkloadSchema schema;
    private final WorkloadSettings settings;
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicLong committed = new AtomicLong();
    private final AtomicLong rolledBack = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final List<String> errors = Collections.synchronizedList(new ArrayList<>());
    private volatile boolean stopping;

    public Workload(PgEndpoint source, WorkloadSchema schema, WorkloadSettings settings) {
        this.source = source;
        this.schema = schema;
        this.settings = settings;
    }

    /** Starts the writers. */
    public synchronized void start() {
        if (!threads.isEmpty()) {
            throw new IllegalStateException("The workload already started");
        }
        Duration pace = Duration.ofNanos(1_000_000_000L * settings.writers() / settings.transactionsPerSecond());
        for (int w = 0; w < settings.writers(); w++) {
            Random random = new Random(settings.seed() * 1_000_003L + w);
            threads.add(thread("chaos-writer-" + w, () -> writeLoop(random, pace)));
        }
        if (settings.longTransactions()) {
            Random random = new Random(settings.seed() * 1_000_003L - 1);
            threads.add(thread("chaos-long-writer", () -> longLoop(random)));
        }
        threads.forEach(Thread::start);
    }

    private static Thread thread(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }

    /** Stops the writers and waits for them: afterwards the source is quiet. */
    public synchronized WorkloadStats stop() {
        stopping = true;
        for (Thread thread : threads) {
            try {
                thread.join(Duration.ofSeconds(30).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return stats();
    }

    /** Counts so far. */
    public WorkloadStats stats() {
        synchronized (errors) {
            return new WorkloadStats(committed.get(), rolledBack.get(), failed.get(), errors);
        }
    }

    @Override
    public void close() {
        stop();
    }

    private void writeLoop(Random random, Duration pace) {
        SourceWrites writes = new SourceWrites(schema, new RandomValues(random));
        long next = System.nanoTime();
        Connection c = null;
        while (!stopping) {
            next += pace.toNanos();
            try {
                c = connected(c);
                if (random.nextInt(4) == 0) {
                    asynchronousCommit(c);
                }
                int transaction = random.nextInt(100);
                if (transaction < 80) {
                    one(writes, random, c, transaction);
                } else {
                    for (int i = 2 + random.nextInt(5); i > 0; i--) {
                        one(writes, random, c, random.nextInt(80));
                    }
                }
                c.commit();
                committed.incrementAndGet();
            } catch (SQLException e) {
                c = failedTransaction(c, e);
            }
            LockSupport.parkNanos(Math.max(0, next - System.nanoTime()));
        }
        close(c);
    }

    /** This transaction commits without waiting for its WAL to be flushed ({@code synchronous_commit = off}). */
    private static void asynchronousCommit(Connection c) throws SQLException {
        try (Statement statement = c.createStatement()) {
            statement.execute("SET LOCAL synchronous_commit TO off");
        }
    }

    private static void one(SourceWrites writes, Random random, Connection c, int choice) throws SQLException {
        if (choice < 22) {
            writes.insert(c);
        } else if (choice < 42) {
            writes.update(c);
        } else if (choice < 52) {
            writes.delete(c);
        } else if (choice < 60) {
            writes.changeKey(c);
        } else {
            writes.transfer(c);
        }
    }

    private void longLoop(Random random) {
        SourceWrites writes = new SourceWrites(schema, new RandomValues(random));
        Connection c = null;
        while (!stopping) {
            try {
                c = connected(c);
                writes.transfer(c);
                writes.update(c);
                writes.insert(c);
                long until = System.nanoTime() + Duration.ofMillis(1_500 + random.nextInt(3_500)).toNanos();
                while (!stopping && System.nanoTime() < until) {
                    LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
                }
                writes.transfer(c);
                c.commit();
                committed.incrementAndGet();
            } catch (SQLException e) {
                c = failedTransaction(c, e);
            }
            LockSupport.parkNanos(Duration.ofMillis(200 + random.nextInt(1_000)).toNanos());
        }
        close(c);
    }

    private Connection connected(Connection c) throws SQLException {
        if (c != null) {
            return c;
        }
        Connection connection = source.connect();
        connection.setAutoCommit(false);
        return connection;
    }

    /** Rolls back; returns the connection to keep using, or null to reconnect. */
    private Connection failedTransaction(Connection c, SQLException e) {
        if (EXPECTED_CONFLICTS.contains(e.getSQLState())) {
            rolledBack.incrementAndGet();
            try {
                c.rollback();
                return c;
            } catch (SQLException rollback) {
                close(c);
                return null;
            }
        }
        failed.incrementAndGet();
        synchronized (errors) {
            if (errors.size() < MAX_RECORDED_ERRORS) {
                errors.add(e.getSQLState() + ": " + e.getMessage());
            }
        }
        close(c);
        LockSupport.parkNanos(Duration.ofMillis(500).toNanos());
        return null;
    }

    private static void close(Connection c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (SQLException e) {
            // The connection is gone either way.
            return;
        }
    }
}
