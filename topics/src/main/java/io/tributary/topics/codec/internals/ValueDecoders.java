package io.tributary.topics.codec.internals;

import com.fasterxml.jackson.core.JsonToken;
import io.tributary.topics.messages.TopicMessage;
import java.io.IOException;
import java.util.List;

/**
 * Reads value envelopes written by {@link ValueEncoder}.
 *
 * <p>Format rules: the envelope is one JSON object; its first field is {@code "v"} (an integer: anything but
 * {@link ValueEncoder#VERSION} is rejected before anything else is read) and its second {@code "type"}. The
 * other fields may come in any order; unknown fields are skipped (additive evolution within a version); missing
 * fields, wrong JSON types, invalid values and trailing bytes are rejected. Stateless and thread-safe.
 */
public final class ValueDecoders {

    private ValueDecoders() {
    }

    /**
     * Decodes {@code value}, which must be one of {@code allowedTypes} (the types of topic {@code topicRole}).
     *
     * @throws MalformedInput     if the bytes are not such a message
     * @throws IOException        if they are not JSON
     * @throws IllegalArgumentException if a decoded value breaks a record invariant
     */
    public static TopicMessage decode(byte[] value, List<String> allowedTypes, String topicRole) throws IOException {
        try (JsonReader reader = JsonReader.of(value)) {
            String type = header(reader);
            if (!allowedTypes.contains(type)) {
                throw new MalformedInput("type '" + type + "' does not belong on " + topicRole + " (expected one of "
                    + allowedTypes + ")");
            }
            TopicMessage message = body(reader, type);
            reader.finish();
            return message;
        }
    }

    private static String header(JsonReader reader) throws IOException {
        reader.expect(JsonToken.START_OBJECT, "a JSON object");
        if (!Fields.VERSION.equals(reader.nextField())) {
            throw new MalformedInput("the envelope must start with field \"" + Fields.VERSION + "\"");
        }
        long version = reader.nonNegativeLong("version");
        if (version != ValueEncoder.VERSION) {
            throw new MalformedInput("unknown version " + version + " (expected " + ValueEncoder.VERSION + ")");
        }
        if (!Fields.TYPE.equals(reader.nextField())) {
            throw new MalformedInput("field \"" + Fields.TYPE + "\" must follow \"" + Fields.VERSION + "\"");
        }
        return reader.string("type");
    }

    private static TopicMessage body(JsonReader reader, String type) throws IOException {
        switch (type) {
            case WireTypes.CHANGE:
                return StreamValues.changeEvent(reader);
            case WireTypes.BARRIER:
                return StreamValues.barrier(reader);
            case WireTypes.TABLE_WINDOW:
                return StreamValues.tableWindow(reader);
            case WireTypes.TABLE_TRUNCATE:
                return StreamValues.tableTruncate(reader);
            case WireTypes.ROW:
                return StreamValues.resolvedRow(reader);
            case WireTypes.TABLE_READY:
                return StreamValues.tableReady(reader);
            case WireTypes.CHUNK_TASK:
                return SnapshotValues.chunkTask(reader);
            case WireTypes.SNAPSHOT_ROW:
                return SnapshotValues.snapshotRow(reader);
            case WireTypes.CHUNK_DONE:
                return SnapshotValues.chunkDone(reader);
            case WireTypes.TABLE_PLAN:
                return SnapshotValues.tablePlan(reader);
            default:
                throw new MalformedInput("unknown type '" + type + "'");
        }
    }

    /** {@code value}, or a {@link MalformedInput} naming the missing field of {@code type}. */
    static <T> T required(T value, String field, String type) {
        if (value == null) {
            throw new MalformedInput("missing field \"" + field + "\" in " + type);
        }
        return value;
    }

    /** A non-negative number read into a nullable holder; {@code -1} marks "absent" for the caller. */
    static long required(long value, String field, String type) {
        if (value < 0) {
            throw new MalformedInput("missing field \"" + field + "\" in " + type);
        }
        return value;
    }
}
