package io.tributary.bench.tpcb;

import io.tributary.postgres.PgEndpoint;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * A steady TPC-B-style write load: {@code clients} threads, each on its own connection, each committing pgbench's
 * TPC-B transaction (update one account, read its balance, update one teller and one branch, insert one history
 * row) at {@code tps / clients} transactions per second, paced by a fixed schedule (a client that falls behind
 * catches up without bursting past the schedule's total). Runs from {@link #start} until {@link #close}; a failed
 * transaction is rolled back, counted and the client goes on. Thread-safe.
 */
public final class TpcbClients implements AutoCloseable {

    /** What the load did between two reads of it. */
    public record Done(long transactions, long failures, double seconds) {

        /** Committed transactions per second. */
        public double tps() {
            return seconds > 0 ? transactions / seconds : 0;
        }
    }

    private final List<Thread> threads = new ArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong committed = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicReference<SQLException> lastFailure = new AtomicReference<>();
    private final long startedNanos = System.nanoTime();

    private TpcbClients() {
    }

    /** Starts {@code clients} clients on {@code source} sharing {@code tps} transactions per second. */
    public static TpcbClients start(PgEndpoint source, TpcbSchema schema, int clients, int tps) {
        if (clients < 1 || tps < 1) {
            throw new IllegalArgumentException("clients and tps must be >= 1: " + clients + ", " + tps);
        }
        TpcbClients load = new TpcbClients();
        long intervalNanos = 1_000_000_000L * clients / tps;
        for (int i = 0; i < clients; i++) {
            long seed = 7919L * (i + 1);
            Thread thread = new Thread(() -> load.client(source, schema, intervalNanos, seed), "bench-tpcb-" + i);
            thread.setDaemon(true);
            load.threads.add(thread);
            thread.start();
        }
        return load;
    }

    /** Transactions committed and failed since the start. */
    public Done sinceStart() {
        return new Done(committed.get(), failed.get(), (System.nanoTime() - startedNanos) / 1e9);
    }

    /** The last failed transaction's error, if any (the load went on after it). */
    public java.util.Optional<SQLException> lastFailure() {
        return java.util.Optional.ofNullable(lastFailure.get());
    }

    private void client(PgEndpoint source, TpcbSchema schema, long intervalNanos, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long next = System.nanoTime();
        while (running.get()) {
            try (Connection c = source.connect();
                 PreparedStatement account = c.prepareStatement(
                     "UPDATE accounts SET abalance = abalance + ? WHERE aid = ?");
                 PreparedStatement balance = c.prepareStatement("SELECT abalance FROM accounts WHERE aid = ?");
                 PreparedStatement teller = c.prepareStatement(
                     "UPDATE tellers SET tbalance = tbalance + ? WHERE tid = ?");
                 PreparedStatement branch = c.prepareStatement(
                     "UPDATE branches SET bbalance = bbalance + ? WHERE bid = ?");
                 PreparedStatement history = c.prepareStatement("INSERT INTO history (tid, bid, aid, delta, mtime)"
                     + " VALUES (?, ?, ?, ?, now())")) {
                c.setAutoCommit(false);
                while (running.get()) {
                    long wait = next - System.nanoTime();
                    if (wait > 0) {
                        LockSupport.parkNanos(wait);
                        continue;
                    }
                    next += intervalNanos;
                    long aid = 1 + random.nextLong(schema.accounts());
                    int tid = 1 + random.nextInt(schema.tellers());
                    int bid = 1 + random.nextInt(schema.branches());
                    int delta = random.nextInt(-5000, 5001);
                    try {
                        transaction(c, account, balance, teller, branch, history, aid, tid, bid, delta);
                        committed.incrementAndGet();
                    } catch (SQLException e) {
                        c.rollback();
                        failed.incrementAndGet();
                        lastFailure.set(e);
                    }
                }
            } catch (SQLException e) {
                failed.incrementAndGet();
                lastFailure.set(e);
                LockSupport.parkNanos(100_000_000L);
            }
        }
    }

    private static void transaction(Connection c, PreparedStatement account, PreparedStatement balance,
                                    PreparedStatement teller, PreparedStatement branch, PreparedStatement history,
                                    long aid, int tid, int bid, int delta) throws SQLException {
        account.setInt(1, delta);
        account.setLong(2, aid);
        account.executeUpdate();
        balance.setLong(1, aid);
        balance.executeQuery().close();
        teller.setInt(1, delta);
        teller.setInt(2, tid);
        teller.executeUpdate();
        branch.setInt(1, delta);
        branch.setInt(2, bid);
        branch.executeUpdate();
        history.setInt(1, tid);
        history.setInt(2, bid);
        history.setLong(3, aid);
        history.setInt(4, delta);
        history.executeUpdate();
        c.commit();
    }

    /** Stops every client after its current transaction. */
    @Override
    public void close() throws InterruptedException {
        running.set(false);
        for (Thread thread : threads) {
            thread.join(10_000);
        }
    }
}
