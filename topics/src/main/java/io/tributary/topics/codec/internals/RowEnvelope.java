package io.tributary.topics.codec.internals;

import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.ResolvedRow;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.SnapshotPosition;
import io.tributary.topics.messages.SourcePosition;
import io.tributary.topics.messages.StreamPosition;
import io.tributary.topics.messages.TableId;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * The binary value envelope of a {@link ResolvedRow} on {@code rows} (version {@value #VERSION}): the same fields as
 * the JSON envelope, each read by its length, so a reader never scans the row's bytes. Big-endian:
 *
 * <pre>
 *   u8  version (2)           u8  type (1: row)
 *   u16 length, schema UTF-8  u16 length, table name UTF-8
 *   u32 length, primary key (its canonical JSON array, verbatim)
 *   u8  source kind: 1 stream, then i64 LSN and i64 seq; 2 chunk, then u16 length, chunk id UTF-8, and i32 attempt
 *   u32 length, row (its canonical JSON object, verbatim)
 * </pre>
 *
 * <p>Nothing may follow. The first byte tells it from a JSON envelope, which starts with {@code '{'}. A row whose
 * table or chunk id has no UTF-8 form (an unpaired surrogate) is written as the JSON envelope instead, which
 * escapes it; readers accept both. Stateless and thread-safe.
 */
public final class RowEnvelope {

    /** The version byte of this envelope. */
    public static final int VERSION = 2;

    private static final byte TYPE_ROW = 1;
    private static final byte SOURCE_STREAM = 1;
    private static final byte SOURCE_CHUNK = 2;

    private RowEnvelope() {
    }

    /** Whether {@code value} starts like this envelope (rather than a JSON one). */
    public static boolean isBinary(byte[] value) {
        return value.length > 0 && value[0] != '{' && value[0] != ' ' && value[0] != '\t' && value[0] != '\n'
            && value[0] != '\r';
    }

    /** The envelope of {@code row}; the JSON envelope if one of its texts has no UTF-8 form. */
    public static byte[] encode(ResolvedRow row) {
        Optional<byte[]> schema = ShortTexts.utf8(row.table().schema());
        Optional<byte[]> name = ShortTexts.utf8(row.table().name());
        Optional<byte[]> chunk = row.source() instanceof SnapshotPosition position
            ? ShortTexts.utf8(position.chunkId()) : Optional.of(new byte[0]);
        if (schema.isEmpty() || name.isEmpty() || chunk.isEmpty()) {
            return ValueEncoder.encode(row);
        }
        byte[] pk = row.pk().unsafeUtf8();
        byte[] json = row.row().unsafeUtf8();
        int sourceSize = row.source() instanceof StreamPosition ? 16 : 2 + chunk.get().length + 4;
        ByteBuffer out = ByteBuffer.allocate(2 + 2 + schema.get().length + 2 + name.get().length + 4 + pk.length + 1
            + sourceSize + 4 + json.length);
        out.put((byte) VERSION).put(TYPE_ROW);
        ShortTexts.put(out, schema.get());
        ShortTexts.put(out, name.get());
        out.putInt(pk.length).put(pk);
        if (row.source() instanceof StreamPosition stream) {
            out.put(SOURCE_STREAM).putLong(stream.lsn().value()).putLong(stream.seq());
        } else {
            SnapshotPosition snapshot = (SnapshotPosition) row.source();
            out.put(SOURCE_CHUNK);
            ShortTexts.put(out, chunk.get());
            out.putInt(snapshot.attempt());
        }
        out.putInt(json.length).put(json);
        return out.array();
    }

    /**
     * The row in {@code value}, an envelope of this format.
     *
     * @throws MalformedInput if it is not one (another version or type, a length past the end, trailing bytes,
     *                        texts that are not UTF-8, a field breaking a record invariant)
     */
    public static ResolvedRow decode(byte[] value) {
        BinaryReader in = BinaryReader.afterHeader(value, VERSION, TYPE_ROW, TYPE_ROW + ": row");
        try {
            TableId table = in.table();
            KeyValues pk = KeyValues.ofUtf8(in.bytes(in.u32("pk length"), "pk"));
            SourcePosition source = source(in);
            RowJson row = RowJson.ofUtf8(in.bytes(in.u32("row length"), "row"));
            in.finish();
            return new ResolvedRow(table, pk, row, source);
        } catch (IllegalArgumentException e) {
            throw new MalformedInput(e.getMessage(), e);
        }
    }

    private static SourcePosition source(BinaryReader in) {
        int kind = in.u8("source kind");
        if (kind == SOURCE_STREAM) {
            return new StreamPosition(Lsn.of(in.i64("source lsn")), in.i64("source seq"));
        } else if (kind == SOURCE_CHUNK) {
            String chunk = in.text(in.u16("chunk id length"), "chunk id");
            return new SnapshotPosition(chunk, in.i32("chunk attempt"));
        }
        throw new MalformedInput("unknown source kind " + kind + " (expected 1: stream or 2: chunk)");
    }
}
