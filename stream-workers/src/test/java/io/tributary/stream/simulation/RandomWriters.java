package io.tributary.stream.simulation;

import io.tributary.testing.PostgresDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Writer threads updating, deleting, inserting and re-keying random rows of {@code items} at full speed, in
 * transactions of one to three rows (ids locked in ascending order). Now and then a transaction stays open a
 * while ({@code pg_sleep} inside it), so chunk snapshots see transactions in progress. Conflicts (unique
 * violations, deadlocks) roll the transaction back, as an application would.
 */
public final class RandomWriters implements AutoCloseable {

    private final PostgresDatabase db;
    private final int maxId;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong committed = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final List<Thread> threads = new ArrayList<>();

    private RandomWriters(PostgresDatabase db, int maxId) {
        this.db = db;
        this.maxId = maxId;
    }

    /** Starts {@code count} writers over ids {@code 1..maxId}, seeded from {@code seed}. */
    public static RandomWriters start(PostgresDatabase db, int count, int maxId, long seed) {
        RandomWriters writers = new RandomWriters(db, maxId);
        for (int i = 0; i < count; i++) {
            Random random = new Random(seed + i);
            Thread thread = new Thread(() -> writers.run(random), "writer-" + i);
            writers.threads.add(thread);
            thread.start();
        }
        return writers;
    }

    /** Transactions committed so far. */
    public long committed() {
        if (failure.get() != null) {
            throw new IllegalStateException("A writer failed", failure.get());
        }
        return committed.get();
    }

    private void run(Random random) {
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            while (running.get()) {
                try {
                    transaction(c, random);
                    c.commit();
                    committed.incrementAndGet();
                } catch (SQLException e) {
                    c.rollback();
                    if (!isConflict(e)) {
                        throw e;
                    }
                }
            }
        } catch (SQLException | RuntimeException e) {
            failure.set(e);
        }
    }

    private void transaction(Connection c, Random random) throws SQLException {
        TreeSet<Integer> ids = new TreeSet<>();
        int rows = 1 + random.nextInt(3);
        while (ids.size() < rows) {
            ids.add(1 + random.nextInt(maxId));
        }
        for (int id : ids) {
            int dice = random.nextInt(100);
            if (dice < 50) {
                execute(c, "UPDATE items SET v = ?, n = n + 1 WHERE id = ?", "u" + random.nextInt(1_000_000), id);
            } else if (dice < 70) {
                execute(c, "DELETE FROM items WHERE id = ?", null, id);
            } else if (dice < 92) {
                execute(c, "INSERT INTO items VALUES (?, ?, 0) ON CONFLICT (id) DO UPDATE SET v = EXCLUDED.v,"
                    + " n = items.n + 1", "i" + random.nextInt(1_000_000), id);
            } else {
                try (PreparedStatement move = c.prepareStatement("UPDATE items SET id = ? WHERE id = ?")) {
                    move.setInt(1, 1 + random.nextInt(maxId));
                    move.setInt(2, id);
                    move.executeUpdate();
                }
            }
        }
        if (random.nextInt(50) == 0) {
            try (Statement s = c.createStatement()) {
                s.execute("SELECT pg_sleep(0.03)");
            }
        }
    }

    private static void execute(Connection c, String sql, String value, int id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            if (value == null) {
                s.setInt(1, id);
            } else if (sql.startsWith("INSERT")) {
                s.setInt(1, id);
                s.setString(2, value);
            } else {
                s.setString(1, value);
                s.setInt(2, id);
            }
            s.executeUpdate();
        }
    }

    private static boolean isConflict(SQLException e) {
        String state = e.getSQLState();
        return "23505".equals(state) || "40P01".equals(state) || "40001".equals(state);
    }

    /** Stops the writers and waits for their last transaction to end. */
    @Override
    public void close() throws InterruptedException {
        running.set(false);
        for (Thread thread : threads) {
            thread.join();
        }
        committed();
    }
}
