package io.tributary.topics.codec.internals;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import io.tributary.topics.json.CanonicalJsonFactory;
import io.tributary.topics.messages.MarkerKey;
import io.tributary.topics.messages.RecordKey;
import io.tributary.topics.messages.RowKey;
import io.tributary.topics.messages.TaskKey;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The key encoder as it was written with Jackson's generator before {@link KeyCodec} wrote bytes itself: the
 * reference the byte-for-byte equality tests compare against. Test code only.
 */
final class JacksonKeyEncoder {

    private static final String ROW = "r";
    private static final String MARKER = "m";
    private static final String TASK = "t";

    private JacksonKeyEncoder() {
    }

    /** The bytes of {@code key}. */
    static byte[] encode(RecordKey key) {
        int hint = key instanceof RowKey ? ((RowKey) key).pk().json().length() + 64 : 64;
        ByteArrayBuilder out = new ByteArrayBuilder(hint);
        try (JsonGenerator g = CanonicalJsonFactory.FACTORY.createGenerator(out)) {
            g.writeStartArray();
            g.writeNumber(1);
            if (key instanceof RowKey) {
                RowKey row = (RowKey) key;
                g.writeString(ROW);
                g.writeString(row.table().schema());
                g.writeString(row.table().name());
                g.writeRawValue(row.pk().json());
            } else if (key instanceof MarkerKey) {
                MarkerKey marker = (MarkerKey) key;
                g.writeString(MARKER);
                g.writeString(marker.kind().wireName());
                g.writeNumber(marker.partition());
                if (marker.table().isPresent()) {
                    g.writeString(marker.table().get().schema());
                    g.writeString(marker.table().get().name());
                }
                if (marker.chunkId().isPresent()) {
                    g.writeString(marker.chunkId().get());
                }
            } else {
                g.writeString(TASK);
                g.writeString(((TaskKey) key).chunkId());
            }
            g.writeEndArray();
        } catch (IOException e) {
            throw new UncheckedIOException("Writing to memory failed", e);
        }
        return out.toByteArray();
    }
}
