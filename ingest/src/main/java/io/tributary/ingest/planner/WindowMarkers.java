package io.tributary.ingest.planner;

import com.fasterxml.jackson.core.JsonGenerator;
import io.tributary.topics.json.CanonicalJsonFactory;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.TableId;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens tables' snapshot windows in the WAL (docs/design.md): per window a transactional logical decoding message
 * {@code pg_logical_emit_message(true, 'tributary.window', '{"schema":"..","table":"..","window_id":".."}')}, the
 * markers of a planning batch committed together in a transaction of their own on the source, so capture writes
 * each to every partition of {@code changes} at their commit position. Every transaction that can be invisible to
 * a chunk snapshot of the window commits after it, because chunks are read only after
 * {@link #awaitOlderTransactions(Connection)} returned. Stateless and thread-safe.
 *
 * <p>The content is a compact JSON object with the fields {@value #SCHEMA}, {@value #TABLE} and
 * {@value #WINDOW_ID} (strings, in that order), then {@code "replaces":true} for a window that replaces the rows of a
 * table that had a window before (capture writes a truncation of the table right before such a marker); capture
 * decodes messages with prefix {@value #PREFIX}.
 */
public final class WindowMarkers {

    /** The logical decoding message prefix of window markers. */
    public static final String PREFIX = "tributary.window";
    /** The field holding the table's schema. */
    public static final String SCHEMA = "schema";
    /** The field holding the table's name. */
    public static final String TABLE = "table";
    /** The field holding the window id. */
    public static final String WINDOW_ID = "window_id";
    /** The field marking a window that replaces its table's earlier rows. */
    public static final String REPLACES = "replaces";

    private static final Logger LOG = LoggerFactory.getLogger(WindowMarkers.class);
    private static final Duration FIRST_RECHECK = Duration.ofMillis(5);
    private static final Duration MAX_RECHECK = Duration.ofMillis(500);
    private static final Duration REPORT_AFTER = Duration.ofSeconds(5);

    private WindowMarkers() {
    }

    /**
     * Waits until every transaction that was running when the markers emitted so far committed has ended, and
     * returns; chunks of their windows may be read from then on.
     *
     * <p>Why: a transaction's commit record can reach the WAL (so its changes precede the marker in
     * {@code changes}) a moment before other sessions' snapshots see it as committed. A chunk snapshot taken in
     * that moment would treat it as running, and its changes, which the merge does not track from before the
     * marker, would be overwritten by the chunk's older row version. Waiting until the oldest running
     * transaction is newer than every transaction id assigned before this call closes that window: whatever a later
     * chunk snapshot sees as running started after the markers and so commits after them. A long-running
     * transaction on the source delays the snapshot (reported in the log), it never breaks it.
     *
     * @throws InterruptedException if the planner is shut down while waiting
     */
    public static void awaitOlderTransactions(Connection source) throws SQLException, InterruptedException {
        String horizon;
        // A transaction id of our own, assigned after the markers committed: every transaction that committed
        // before them got its id earlier. (pg_current_snapshot()'s xmax is no such horizon: it is one past the
        // newest *completed* transaction, running ones above it are not listed.)
        try (PreparedStatement snapshot = source.prepareStatement("SELECT pg_current_xact_id()::text");
             ResultSet rs = snapshot.executeQuery()) {
            rs.next();
            horizon = rs.getString(1);
        }
        long started = System.nanoTime();
        Duration recheck = FIRST_RECHECK;
        boolean reported = false;
        try (PreparedStatement passed = source.prepareStatement(
            "SELECT pg_snapshot_xmin(pg_current_snapshot()) >= ?::xid8")) {
            passed.setString(1, horizon);
            while (true) {
                try (ResultSet rs = passed.executeQuery()) {
                    rs.next();
                    if (rs.getBoolean(1)) {
                        return;
                    }
                }
                if (!reported && System.nanoTime() - started > REPORT_AFTER.toNanos()) {
                    LOG.warn("Snapshot chunks wait for source transactions older than the snapshot window to end"
                        + " (started before transaction {}): {}", horizon, oldestRunning(source));
                    reported = true;
                }
                TimeUnit.MILLISECONDS.sleep(recheck.toMillis());
                recheck = recheck.multipliedBy(2).compareTo(MAX_RECHECK) > 0 ? MAX_RECHECK : recheck.multipliedBy(2);
            }
        }
    }

    private static String oldestRunning(Connection source) throws SQLException {
        try (PreparedStatement oldest = source.prepareStatement("SELECT pid, backend_xid::text, xact_start::text,"
            + " left(query, 80) FROM pg_stat_activity WHERE backend_xid IS NOT NULL"
            + " ORDER BY age(backend_xid) DESC LIMIT 1");
             ResultSet rs = oldest.executeQuery()) {
            return rs.next() ? "oldest is pid " + rs.getInt(1) + ", xid " + rs.getString(2) + ", started "
                + rs.getString(3) + ": " + rs.getString(4) : "no session holds an xid any more";
        }
    }

    /** The marker's content for window {@code windowId} of {@code table}, a first window of the table. */
    public static String content(TableId table, String windowId) {
        return content(table, windowId, false);
    }

    /** The marker's content for window {@code windowId} of {@code table}; see the class comment. */
    public static String content(TableId table, String windowId, boolean replaces) {
        StringWriter out = new StringWriter();
        try (JsonGenerator json = CanonicalJsonFactory.FACTORY.createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField(SCHEMA, table.schema());
            json.writeStringField(TABLE, table.name());
            json.writeStringField(WINDOW_ID, windowId);
            if (replaces) {
                json.writeBooleanField(REPLACES, true);
            }
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /**
     * The marker of window {@code windowId} of {@code table}; {@code replaces}: the table had a window before, and
     * this one replaces the rows it left in {@code rows}.
     */
    public record Marker(TableId table, String windowId, boolean replaces) {
        public Marker {
            Objects.requireNonNull(table, "table");
            Objects.requireNonNull(windowId, "windowId");
        }
    }

    /**
     * Emits and commits the marker of window {@code windowId} of {@code table} on {@code source} (which must be
     * in auto-commit mode: the marker is its own transaction).
     *
     * @return the LSN of the message (its transaction commits just after)
     */
    public static Lsn emit(Connection source, TableId table, String windowId) throws SQLException {
        return emitAll(source, List.of(new Marker(table, windowId, false))).get(0);
    }

    /**
     * The source's WAL insert position now ({@code pg_current_wal_insert_lsn()}): read right after
     * {@link #emitAll} returned, it is at or past the markers' commit, also under {@code synchronous_commit = off},
     * so a barrier at or past it follows them in every partition of {@code changes}.
     */
    public static Lsn insertPosition(Connection source) throws SQLException {
        try (PreparedStatement select = source.prepareStatement("SELECT pg_current_wal_insert_lsn()::text");
             ResultSet rs = select.executeQuery()) {
            rs.next();
            return Lsn.parse(rs.getString(1));
        }
    }

    /**
     * Emits the markers of {@code markers}, in order, in one statement and one source transaction, and commits it
     * ({@code source} must be in auto-commit mode). Capture decodes the transaction at its commit, so every marker
     * reaches every partition of {@code changes} at the same place in commit order: each opens its table's window
     * exactly as a marker committed alone at that moment would, and a batch of tables costs the source one commit
     * instead of one per table.
     *
     * @return the LSN of each message, in the order of {@code markers} (their transaction commits just after)
     */
    public static List<Lsn> emitAll(Connection source, List<Marker> markers) throws SQLException {
        if (!source.getAutoCommit()) {
            throw new IllegalStateException("Window markers are committed in a transaction of their own: the"
                + " connection must be in auto-commit mode");
        }
        if (markers.isEmpty()) {
            return List.of();
        }
        String[] contents = markers.stream().map(m -> content(m.table(), m.windowId(), m.replaces()))
            .toArray(String[]::new);
        List<Lsn> lsns = new ArrayList<>(markers.size());
        try (PreparedStatement emit = source.prepareStatement("SELECT pg_logical_emit_message(true, ?, m.content)"
            + "::text FROM unnest(?::text[]) WITH ORDINALITY AS m(content, ord) ORDER BY m.ord")) {
            emit.setString(1, PREFIX);
            emit.setArray(2, source.createArrayOf("text", contents));
            try (ResultSet rs = emit.executeQuery()) {
                while (rs.next()) {
                    lsns.add(Lsn.parse(rs.getString(1)));
                }
            }
        }
        if (lsns.size() != markers.size()) {
            throw new IllegalStateException("Emitted " + lsns.size() + " window markers of " + markers.size());
        }
        return lsns;
    }
}
