package io.tributary.ingest.planner;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.TableId;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Opens a table's snapshot window in the WAL (DESIGN.md section 4): a transactional logical decoding message
 * {@code pg_logical_emit_message(true, 'tributary.window', '{"schema":"..","table":"..","window_id":".."}')},
 * committed in a transaction of its own on the source, so capture writes it to every partition of {@code changes}
 * at its commit position. Every transaction that can be invisible to a chunk snapshot of the window commits after
 * it, because chunks are read only after this returns. Stateless and thread-safe.
 *
 * <p>The content is a compact JSON object with exactly the fields {@value #SCHEMA}, {@value #TABLE} and
 * {@value #WINDOW_ID} (strings, in that order); capture decodes messages with prefix {@value #PREFIX}.
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

    private static final JsonFactory JSON = new JsonFactory();

    private WindowMarkers() {
    }

    /** The marker's content for window {@code windowId} of {@code table}. */
    public static String content(TableId table, String windowId) {
        StringWriter out = new StringWriter();
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField(SCHEMA, table.schema());
            json.writeStringField(TABLE, table.name());
            json.writeStringField(WINDOW_ID, windowId);
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /**
     * Emits and commits the marker of window {@code windowId} of {@code table} on {@code source} (which must be
     * in auto-commit mode: the marker is its own transaction).
     *
     * @return the LSN of the message (its transaction commits just after)
     */
    public static Lsn emit(Connection source, TableId table, String windowId) throws SQLException {
        if (!source.getAutoCommit()) {
            throw new IllegalStateException("A window marker is committed on its own: the connection must be in"
                + " auto-commit mode");
        }
        try (PreparedStatement emit = source.prepareStatement(
            "SELECT pg_logical_emit_message(true, ?, ?)::text")) {
            emit.setString(1, PREFIX);
            emit.setString(2, content(table, windowId));
            try (ResultSet rs = emit.executeQuery()) {
                rs.next();
                return Lsn.parse(rs.getString(1));
            }
        }
    }
}
