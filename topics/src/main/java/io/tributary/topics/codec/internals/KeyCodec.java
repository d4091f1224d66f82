package io.tributary.topics.codec.internals;

import com.fasterxml.jackson.core.JsonToken;
import io.tributary.topics.messages.MarkerKey;
import io.tributary.topics.messages.MarkerKind;
import io.tributary.topics.messages.RecordKey;
import io.tributary.topics.messages.RowKey;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TaskKey;
import java.io.IOException;
import java.util.Optional;

/**
 * The key wire format: a compact UTF-8 JSON array {@code [<version>,"<form>",...]}.
 * <ul>
 *   <li>row: {@code [1,"r","<schema>","<table>",<pk array, verbatim>]}</li>
 *   <li>marker: {@code [1,"m","<kind>",<partition>]}, plus {@code ,"<schema>","<table>"} or {@code ,"<chunk>"}
 *       by the kind's scope</li>
 *   <li>task: {@code [1,"t","<chunk>"]}</li>
 * </ul>
 * Strings are escaped as one fixed Jackson configuration escapes them ({@link EnvelopeWriter}), so equal keys are
 * equal bytes. Stateless, thread-safe.
 */
public final class KeyCodec {

    /** The key format version this code writes and the only one it reads. */
    public static final int VERSION = 1;

    private static final String ROW = "r";
    private static final String MARKER = "m";
    private static final String TASK = "t";

    private KeyCodec() {
    }

    /** The bytes of {@code key}. */
    public static byte[] encode(RecordKey key) {
        int hint = key instanceof RowKey ? ((RowKey) key).pk().unsafeUtf8().length + 64 : 64;
        EnvelopeWriter g = new EnvelopeWriter(hint);
        g.startArray().number(VERSION).comma();
        if (key instanceof RowKey) {
            RowKey row = (RowKey) key;
            g.string(ROW).comma().string(row.table().schema()).comma().string(row.table().name()).comma()
                .bytes(row.pk().unsafeUtf8());
        } else if (key instanceof MarkerKey) {
            MarkerKey marker = (MarkerKey) key;
            g.string(MARKER).comma().string(marker.kind().wireName()).comma().number(marker.partition());
            if (marker.table().isPresent()) {
                g.comma().string(marker.table().get().schema()).comma().string(marker.table().get().name());
            }
            if (marker.chunkId().isPresent()) {
                g.comma().string(marker.chunkId().get());
            }
        } else {
            g.string(TASK).comma().string(((TaskKey) key).chunkId());
        }
        return g.endArray().toByteArray();
    }

    /**
     * The key encoded in {@code bytes}.
     *
     * @throws MalformedInput for an unknown version or form, or a wrong shape
     * @throws IOException    if the bytes are not JSON
     */
    public static RecordKey decode(byte[] bytes) throws IOException {
        try (JsonReader r = JsonReader.of(bytes)) {
            r.expect(JsonToken.START_ARRAY, "a key array");
            long version = r.nonNegativeLong("key version");
            if (version != VERSION) {
                throw new MalformedInput("unknown key version " + version + " (expected " + VERSION + ")");
            }
            String form = r.string("key form");
            RecordKey key;
            switch (form) {
                case ROW -> key = new RowKey(r.tableParts("table"), r.keyValues("pk"));
                case MARKER -> key = marker(r);
                case TASK -> key = new TaskKey(r.string("chunk"));
                default -> throw new MalformedInput("unknown key form '" + form + "' (expected r, m or t)");
            }
            r.expect(JsonToken.END_ARRAY, "the end of the key");
            r.finish();
            return key;
        }
    }

    private static MarkerKey marker(JsonReader r) throws IOException {
        String kindName = r.string("marker kind");
        MarkerKind kind;
        try {
            kind = MarkerKind.fromWireName(kindName);
        } catch (IllegalArgumentException e) {
            throw new MalformedInput(e.getMessage(), e);
        }
        int partition = r.nonNegativeInt("marker partition");
        Optional<TableId> table = Optional.empty();
        Optional<String> chunk = Optional.empty();
        if (kind.scope() == MarkerKind.Scope.TABLE) {
            table = Optional.of(r.tableParts("marker table"));
        } else if (kind.scope() == MarkerKind.Scope.CHUNK) {
            chunk = Optional.of(r.string("marker chunk"));
        }
        return new MarkerKey(kind, partition, table, chunk);
    }
}
