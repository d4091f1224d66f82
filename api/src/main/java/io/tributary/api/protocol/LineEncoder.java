package io.tributary.api.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import io.tributary.topics.json.CanonicalJsonFactory;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.OptionalLong;

/**
 * Encodes the lines of a sync stream as NDJSON ({@code application/x-ndjson}): one JSON object per line, each
 * ending in {@code \n}, with the shapes of PowerSync's protocol. Op ids are decimal strings; bucket checksums are
 * signed 32-bit integers, op checksums unsigned ones (the client accepts both).
 *
 * <p>Each bucket of a checkpoint lists its definition as its default subscription, by index into the checkpoint's
 * {@code streams} (the definitions in rule order, all subscribed by default).
 *
 * <p>Stateless and thread-safe.
 */
public final class LineEncoder {

    private final List<String> definitions;

    /** An encoder for buckets of the given definitions, in rule order. */
    public LineEncoder(List<String> definitions) {
        this.definitions = List.copyOf(definitions);
    }

    /** {@code {"checkpoint": {last_op_id, write_checkpoint?, buckets, streams}}}: the full state at a checkpoint. */
    public byte[] checkpoint(long lastOpId, OptionalLong writeCheckpoint, List<BucketChecksum> buckets) {
        return line(g -> {
            g.writeObjectFieldStart("checkpoint");
            head(g, lastOpId, writeCheckpoint);
            g.writeArrayFieldStart("buckets");
            for (BucketChecksum bucket : buckets) {
                bucket(g, bucket);
            }
            g.writeEndArray();
            g.writeArrayFieldStart("streams");
            for (String definition : definitions) {
                g.writeStartObject();
                g.writeStringField("name", definition);
                g.writeBooleanField("is_default", true);
                g.writeArrayFieldStart("errors");
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        });
    }

    /** {@code {"checkpoint_diff": {...}}}: what changed since the previous checkpoint line of the stream. */
    public byte[] checkpointDiff(long lastOpId, OptionalLong writeCheckpoint, List<BucketChecksum> updated,
                                 List<String> removed) {
        return line(g -> {
            g.writeObjectFieldStart("checkpoint_diff");
            head(g, lastOpId, writeCheckpoint);
            g.writeArrayFieldStart("updated_buckets");
            for (BucketChecksum bucket : updated) {
                bucket(g, bucket);
            }
            g.writeEndArray();
            g.writeArrayFieldStart("removed_buckets");
            for (String bucket : removed) {
                g.writeString(bucket);
            }
            g.writeEndArray();
            g.writeEndObject();
        });
    }

    /**
     * {@code {"data": {bucket, after, next_after, has_more, data: [...]}}}. With {@code rawData} each op's
     * {@code data} is the row's JSON text as a string; without, the row object itself (older clients). A MOVE or CLEAR
     * carries only its op id, op name and checksum, with {@code data} null, as PowerSync sends them.
     */
    public byte[] data(DataBatch batch, boolean rawData) {
        return new DataLineWriter(rawData).line(batch);
    }

    /** {@code {"partial_checkpoint_complete": {last_op_id, priority}}}: every bucket of that priority is done. */
    public byte[] partialCheckpointComplete(long lastOpId, int priority) {
        return line(g -> {
            g.writeObjectFieldStart("partial_checkpoint_complete");
            g.writeStringField("last_op_id", Long.toString(lastOpId));
            g.writeNumberField("priority", priority);
            g.writeEndObject();
        });
    }

    /** {@code {"checkpoint_complete": {last_op_id}}}: every bucket is at the checkpoint. */
    public byte[] checkpointComplete(long lastOpId) {
        return line(g -> {
            g.writeObjectFieldStart("checkpoint_complete");
            g.writeStringField("last_op_id", Long.toString(lastOpId));
            g.writeEndObject();
        });
    }

    /** {@code {"token_expires_in": seconds}}: the keepalive; 0 ends the stream. */
    public static byte[] keepalive(long tokenExpiresInSeconds) {
        return line(g -> g.writeNumberField("token_expires_in", Math.max(0, tokenExpiresInSeconds)));
    }

    private void bucket(JsonGenerator g, BucketChecksum bucket) throws IOException {
        g.writeStartObject();
        g.writeStringField("bucket", bucket.bucket());
        g.writeNumberField("checksum", bucket.checksum());
        g.writeNumberField("count", bucket.count());
        g.writeNumberField("priority", bucket.priority());
        g.writeArrayFieldStart("subscriptions");
        int index = definitions.indexOf(definitionOf(bucket.bucket()));
        if (index >= 0) {
            g.writeStartObject();
            g.writeNumberField("default", index);
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private static String definitionOf(String bucket) {
        int bracket = bucket.indexOf('[');
        return bracket < 0 ? bucket : bucket.substring(0, bracket);
    }

    private static void head(JsonGenerator g, long lastOpId, OptionalLong writeCheckpoint) throws IOException {
        g.writeStringField("last_op_id", Long.toString(lastOpId));
        if (writeCheckpoint.isPresent()) {
            g.writeStringField("write_checkpoint", Long.toString(writeCheckpoint.getAsLong()));
        }
    }

    private static byte[] line(Body body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator g = CanonicalJsonFactory.FACTORY.createGenerator(out)) {
            g.writeStartObject();
            body.write(g);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("Encoding a sync line failed", e);
        }
        out.write('\n');
        return out.toByteArray();
    }

    @FunctionalInterface
    private interface Body {
        void write(JsonGenerator g) throws IOException;
    }
}
