package io.tributary.topics.codec.internals;

import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.ChangeOp;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.TableId;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;

/**
 * The binary value envelope of a {@link ChangeEvent} on {@code changes} (version {@value #VERSION}, the version of
 * the binary row envelope of {@code rows}): the same fields as the JSON envelope, each read by its length, so a
 * reader never scans the row's bytes. Big-endian:
 *
 * <pre>
 *   u8  version (2)           u8  type (4: change event)
 *   u16 length, schema UTF-8  u16 length, table name UTF-8
 *   u8  operation: 1 insert, 2 update, 3 delete
 *   u32 length, primary key (its canonical JSON array, verbatim)
 *   i64 commit LSN            i64 seq            i64 transaction id
 *   insert and update only: u32 length, row (its canonical JSON object, verbatim)
 * </pre>
 *
 * <p>Nothing may follow. The first byte tells it from a JSON envelope, which starts with {@code '{'}; the second
 * from a {@link ChangeBatchEnvelope}. An event whose table has no UTF-8 form (an unpaired surrogate) is written as the
 * JSON envelope instead, which escapes it; readers accept both. Stateless and thread-safe.
 */
public final class ChangeEnvelope {

    /** The version byte of this envelope. */
    public static final int VERSION = RowEnvelope.VERSION;
    /** The type byte of this envelope. */
    static final byte TYPE_CHANGE_EVENT = 4;

    /** The operations by code, from 1. */
    private static final List<ChangeOp> OPS = List.of(ChangeOp.INSERT, ChangeOp.UPDATE, ChangeOp.DELETE);

    private ChangeEnvelope() {
    }

    /** Whether {@code value} claims to be an envelope of this format (its first two bytes). */
    public static boolean isOne(byte[] value) {
        return value.length > 1 && value[0] == VERSION && value[1] == TYPE_CHANGE_EVENT;
    }

    /** The envelope of {@code event}; the JSON envelope if its table has no UTF-8 form. */
    public static byte[] encode(ChangeEvent event) {
        Optional<byte[]> schema = ShortTexts.utf8(event.table().schema());
        Optional<byte[]> name = ShortTexts.utf8(event.table().name());
        if (schema.isEmpty() || name.isEmpty()) {
            return ValueEncoder.encode(event);
        }
        byte[] pk = event.pk().unsafeUtf8();
        byte[] row = event.row().map(RowJson::unsafeUtf8).orElse(null);
        ByteBuffer out = ByteBuffer.allocate(2 + 2 + schema.get().length + 2 + name.get().length + 1 + 4 + pk.length
            + 24 + (row == null ? 0 : 4 + row.length));
        out.put((byte) VERSION).put(TYPE_CHANGE_EVENT);
        ShortTexts.put(out, schema.get());
        ShortTexts.put(out, name.get());
        out.put(opCode(event.op()));
        out.putInt(pk.length).put(pk);
        out.putLong(event.lsn().value()).putLong(event.seq()).putLong(event.txId());
        if (row != null) {
            out.putInt(row.length).put(row);
        }
        return out.array();
    }

    /** The operation's code: its place in {@link #OPS}, from 1. */
    private static byte opCode(ChangeOp op) {
        return (byte) (OPS.indexOf(op) + 1);
    }

    /**
     * The event in {@code value}, an envelope of this format.
     *
     * @throws MalformedInput if it is not one (another version or type, an unknown operation, a length past the
     *                        end, trailing bytes, texts that are not UTF-8, a field breaking a record invariant)
     */
    public static ChangeEvent decode(byte[] value) {
        BinaryReader in = BinaryReader.afterHeader(value, VERSION, TYPE_CHANGE_EVENT,
            TYPE_CHANGE_EVENT + ": change event on changes");
        try {
            TableId table = in.table();
            int op = in.u8("operation");
            if (op < 1 || op > OPS.size()) {
                throw new MalformedInput("unknown operation " + op + " (expected 1: insert, 2: update or 3: delete)");
            }
            KeyValues pk = KeyValues.ofUtf8(in.bytes(in.u32("pk length"), "pk"));
            Lsn lsn = Lsn.of(in.i64("commit lsn"));
            long seq = in.i64("seq");
            long txId = in.i64("transaction id");
            ChangeOp changeOp = OPS.get(op - 1);
            Optional<RowJson> row = changeOp == ChangeOp.DELETE ? Optional.empty()
                : Optional.of(RowJson.ofUtf8(in.bytes(in.u32("row length"), "row")));
            in.finish();
            return new ChangeEvent(table, changeOp, pk, row, lsn, seq, txId);
        } catch (IllegalArgumentException e) {
            throw new MalformedInput(e.getMessage(), e);
        }
    }
}
