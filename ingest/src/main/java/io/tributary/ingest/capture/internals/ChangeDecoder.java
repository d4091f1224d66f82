package io.tributary.ingest.capture.internals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.ingest.capture.ReplicaIdentityException;
import io.tributary.ingest.capture.UnavailableValueException;
import io.tributary.source.catalog.ReplicaIdentity;
import io.tributary.source.catalog.TableNotFoundException;
import io.tributary.source.encoding.ConnectRowEncoder;
import io.tributary.source.encoding.EncodedRow;
import io.tributary.source.encoding.RowImage;
import io.tributary.topics.messages.ChangeOp;
import io.tributary.topics.messages.TableId;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.Optional;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns Debezium change records into {@link PendingChange}s with canonical rows and keys, and the planner's
 * logical decoding messages into window markers. Not thread-safe.
 */
final class ChangeDecoder {

    /** The logical decoding message prefix of table-window markers. */
    static final String WINDOW_PREFIX = "tributary.window";

    private static final Logger LOG = LoggerFactory.getLogger(ChangeDecoder.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final TableEncoders encoders;

    ChangeDecoder(TableEncoders encoders) {
        this.encoders = encoders;
    }

    /**
     * The change a {@link RecordKind#CHANGE} record carries; empty if its table no longer exists in the source (it
     * was dropped after the change: its rows cannot be encoded any more, which is logged as an error).
     */
    Optional<PendingChange> change(SourceRecord record) throws SQLException {
        Struct value = (Struct) record.value();
        Struct source = value.getStruct("source");
        TableId table = TableId.of(source.getString("schema"), source.getString("table"));
        try {
            return Optional.of(change(table, value));
        } catch (TableNotFoundException e) {
            LOG.error("Dropping a change of {} at {}: the table no longer exists in the source ({})", table,
                record.sourceOffset(), e.getMessage());
            return Optional.empty();
        }
    }

    private PendingChange change(TableId table, Struct value) throws SQLException {
        String op = value.getString("op");
        switch (op) {
            case "c":
            case "r":
                return row(table, ChangeOp.INSERT, value.getStruct("after"), false);
            case "u":
                return row(table, ChangeOp.UPDATE, value.getStruct("after"), true);
            case "d":
                return delete(table, value.getStruct("before"));
            case "t":
                return new PendingChange.Truncate(table);
            default:
                throw new IllegalStateException("Unknown Debezium operation '" + op + "' on " + table);
        }
    }

    private PendingChange row(TableId table, ChangeOp op, Struct after, boolean update) throws SQLException {
        ConnectRowEncoder encoder = encoders.forRow(table, after.schema());
        EncodedRow encoded = encoder.encode(after, imageOf(encoder, update));
        if (!encoded.isComplete() && update) {
            encoder = encoders.rebuild(table, after.schema());
            encoded = encoder.encode(after, imageOf(encoder, true));
        }
        if (!encoded.isComplete()) {
            throw new UnavailableValueException(table, encoded.unavailableColumns());
        }
        return new PendingChange.Row(table, op, encoded.key(), encoded.row());
    }

    private static RowImage imageOf(ConnectRowEncoder encoder, boolean update) {
        return update && encoder.table().replicaIdentity() != ReplicaIdentity.FULL
            ? RowImage.UPDATE_NEW_TUPLE : RowImage.COMPLETE;
    }

    private PendingChange delete(TableId table, Struct before) throws SQLException {
        if (before == null) {
            throw new ReplicaIdentityException(table, "a DELETE arrived without the old key (replica identity"
                + " NOTHING, or DEFAULT without a primary key)");
        }
        ConnectRowEncoder encoder = encoders.forRow(table, before.schema());
        return new PendingChange.Row(table, ChangeOp.DELETE, encoder.keyValues(before),
            Optional.empty());
    }

    /**
     * The window marker a {@link RecordKind#MESSAGE} record carries, if it is one and well formed. A marker that
     * replaces its table's rows also drops the table's encoder.
     */
    Optional<PendingChange> window(SourceRecord record) {
        Struct message = ((Struct) record.value()).getStruct("message");
        if (message == null || !WINDOW_PREFIX.equals(message.getString("prefix"))) {
            return Optional.empty();
        }
        String content = text(message.get("content"));
        try {
            JsonNode node = JSON.readTree(content);
            String schema = node.path("schema").asText("");
            String name = node.path("table").asText("");
            String windowId = node.path("window_id").asText("");
            if (schema.isEmpty() || name.isEmpty() || windowId.isEmpty()) {
                throw new IOException("schema, table and window_id must be non-empty strings");
            }
            JsonNode replaces = node.path("replaces");
            if (!replaces.isMissingNode() && !replaces.isBoolean()) {
                throw new IOException("replaces must be true or false");
            }
            TableId table = TableId.of(schema, name);
            if (replaces.asBoolean()) {
                // a re-snapshot, e.g. after the table's primary key changed (which leaves Debezium's row schema as
                // it was): the table's next change is encoded from the catalog as it is now
                encoders.forget(table);
            }
            return Optional.of(new PendingChange.Window(table, windowId, replaces.asBoolean()));
        } catch (IOException e) {
            LOG.error("Ignoring a malformed {} message at {} ({}): {}", WINDOW_PREFIX, record.sourceOffset(),
                e.getMessage(), content);
            return Optional.empty();
        }
    }

    private static String text(Object content) {
        if (content instanceof ByteBuffer buffer) {
            ByteBuffer copy = buffer.duplicate();
            byte[] bytes = new byte[copy.remaining()];
            copy.get(bytes);
            return new String(bytes, StandardCharsets.UTF_8);
        }
        if (content instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        return String.valueOf(content);
    }
}
