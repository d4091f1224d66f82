package io.tributary.snapshot.internals;

import io.tributary.storage.progress.WindowProgress;
import io.tributary.storage.progress.WindowStatus;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Progress lines per table, at most one per table per interval, plus one when a table is done:
 * {@code Replicating "tenant_b"."orders" 5480000/~7880678 (412k rows/s)}. Counts come from storage (the whole
 * group's progress); the rate is this process's rows of the table since its previous line. Thread-safe.
 */
public final class ProgressLog {

    private static final Logger LOG = LoggerFactory.getLogger("io.tributary.snapshot.Progress");

    private final Duration interval;
    private final LongSupplier nanoTime;
    private final Map<String, TableRate> tables = new ConcurrentHashMap<>();

    private static final class TableRate {
        private long since;
        private long rows;

        TableRate(long since) {
            this.since = since;
        }
    }

    /** Lines at most every {@code interval} per table, timed by {@code nanoTime}. */
    public ProgressLog(Duration interval, LongSupplier nanoTime) {
        this.interval = Objects.requireNonNull(interval, "interval");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
    }

    /** This process starts reading a chunk of window {@code windowId} of {@code schema.table}. */
    public void chunkStarted(String schema, String table, String windowId) {
        long now = nanoTime.getAsLong();
        tables.computeIfAbsent(key(schema, table, windowId), k -> new TableRate(now));
    }

    /** A chunk of {@code progress}'s table with {@code rows} rows was completed by this process. */
    public void chunkDone(WindowProgress progress, long rows) {
        String table = "\"" + progress.window().schema() + "\".\"" + progress.window().table() + "\"";
        long now = nanoTime.getAsLong();
        String key = key(progress.window().schema(), progress.window().table(), progress.window().windowId());
        TableRate rate = tables.computeIfAbsent(key, k -> new TableRate(now));
        String line = null;
        synchronized (rate) {
            rate.rows += rows;
            long elapsed = now - rate.since;
            boolean done = progress.state() == WindowStatus.DONE;
            if (done || elapsed >= interval.toNanos()) {
                line = (done ? "Replicated " : "Replicating ") + table + " " + progress.rowsText() + " ("
                    + rate(rate.rows, elapsed) + ")";
                rate.rows = 0;
                rate.since = now;
            }
        }
        if (line != null) {
            LOG.info(line);
        }
        if (progress.state() == WindowStatus.DONE) {
            tables.remove(key);
        }
    }

    private static String key(String schema, String table, String windowId) {
        return windowId + '\u0000' + schema + '\u0000' + table;
    }

    /** {@code rows} over {@code nanos} as {@code 950 rows/s}, {@code 412k rows/s} or {@code 1.2M rows/s}. */
    public static String rate(long rows, long nanos) {
        double perSecond = nanos <= 0 ? 0 : rows * 1e9 / nanos;
        if (perSecond < 1_000) {
            return Math.round(perSecond) + " rows/s";
        }
        if (perSecond < 1_000_000) {
            return Math.round(perSecond / 1_000) + "k rows/s";
        }
        return String.format(Locale.ROOT, "%.1fM rows/s", perSecond / 1_000_000);
    }
}
