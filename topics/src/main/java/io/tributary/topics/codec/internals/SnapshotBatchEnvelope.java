package io.tributary.topics.codec.internals;

import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.PgSnapshot;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.SnapshotRow;
import io.tributary.topics.messages.SnapshotRowBatch;
import io.tributary.topics.messages.TableId;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The binary value envelope of a {@link SnapshotRowBatch} on {@code snapshot-rows} (version {@value #VERSION}, the
 * version of the binary row envelope of {@code rows}): the header the rows share once, then each row's key and row
 * verbatim, each read by its length. Big-endian:
 *
 * <pre>
 *   u8  version (2)           u8  type (2: snapshot row batch)
 *   u16 length, schema UTF-8  u16 length, table name UTF-8
 *   u16 length, chunk id UTF-8   i32 attempt   u16 length, window id UTF-8
 *   i64 snapshot xmin   i64 snapshot xmax   u32 count, then count x i64 in-progress id
 *   u32 count, then count x (u32 length, primary key (canonical JSON array); u32 length, row (JSON object))
 * </pre>
 *
 * <p>Nothing may follow. The first byte tells it from a JSON envelope, which starts with {@code '{'}. Texts without
 * a UTF-8 form (an unpaired surrogate) cannot be written: {@link #encodable} says so beforehand, and the rows of such
 * a chunk travel one to a record in the JSON envelope. Stateless and thread-safe.
 */
public final class SnapshotBatchEnvelope {

    /** The version byte of this envelope. */
    public static final int VERSION = 2;

    private static final byte TYPE_SNAPSHOT_ROW_BATCH = 2;
    /** Bytes of a row beside its key and row: their two lengths. */
    public static final int PER_ROW_OVERHEAD = 8;

    private SnapshotBatchEnvelope() {
    }

    /** Whether a batch of rows of {@code table}, {@code chunkId} and {@code windowId} can be written. */
    public static boolean encodable(TableId table, String chunkId, String windowId) {
        return ShortTexts.utf8(table.schema()).isPresent() && ShortTexts.utf8(table.name()).isPresent()
            && ShortTexts.utf8(chunkId).isPresent() && ShortTexts.utf8(windowId).isPresent();
    }

    /**
     * The envelope of {@code batch}.
     *
     * @throws IllegalArgumentException if its texts cannot be written (see {@link #encodable})
     */
    public static byte[] encode(SnapshotRowBatch batch) {
        byte[] schema = required(batch.table().schema(), "schema");
        byte[] name = required(batch.table().name(), "table name");
        byte[] chunk = required(batch.chunkId(), "chunk id");
        byte[] window = required(batch.windowId(), "window id");
        PgSnapshot snapshot = batch.snapshot();
        int size = 2 + 2 + schema.length + 2 + name.length + 2 + chunk.length + 4 + 2 + window.length + 8 + 8 + 4
            + 8 * snapshot.xip().size() + 4;
        for (SnapshotRow row : batch.rows()) {
            size += PER_ROW_OVERHEAD + row.pk().unsafeUtf8().length + row.row().unsafeUtf8().length;
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.put((byte) VERSION).put(TYPE_SNAPSHOT_ROW_BATCH);
        ShortTexts.put(out, schema);
        ShortTexts.put(out, name);
        ShortTexts.put(out, chunk);
        out.putInt(batch.attempt());
        ShortTexts.put(out, window);
        out.putLong(snapshot.xmin()).putLong(snapshot.xmax()).putInt(snapshot.xip().size());
        for (long xid : snapshot.xip()) {
            out.putLong(xid);
        }
        out.putInt(batch.rows().size());
        for (SnapshotRow row : batch.rows()) {
            byte[] pk = row.pk().unsafeUtf8();
            byte[] json = row.row().unsafeUtf8();
            out.putInt(pk.length).put(pk).putInt(json.length).put(json);
        }
        return out.array();
    }

    /**
     * The batch in {@code value}, an envelope of this format.
     *
     * @throws MalformedInput if it is not one (another version or type, a length past the end, trailing bytes,
     *                        texts that are not UTF-8, a field breaking a record invariant)
     */
    public static SnapshotRowBatch decode(byte[] value) {
        BinaryReader in = BinaryReader.afterHeader(value, VERSION, TYPE_SNAPSHOT_ROW_BATCH,
            TYPE_SNAPSHOT_ROW_BATCH + ": snapshot row batch on snapshot-rows");
        try {
            TableId table = in.table();
            String chunk = in.text(in.u16("chunk id length"), "chunk id");
            int attempt = in.i32("attempt");
            String window = in.text(in.u16("window id length"), "window id");
            PgSnapshot snapshot = snapshot(in);
            int count = in.u32("row count");
            if (count == 0 || count > value.length / PER_ROW_OVERHEAD) {
                throw new MalformedInput("row count " + count + " cannot be right for " + value.length + " bytes");
            }
            List<SnapshotRow> rows = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                KeyValues pk = KeyValues.ofUtf8(in.bytes(in.u32("pk length"), "pk"));
                RowJson row = RowJson.ofUtf8(in.bytes(in.u32("row length"), "row"));
                rows.add(new SnapshotRow(table, pk, row, chunk, window, attempt, snapshot));
            }
            in.finish();
            return new SnapshotRowBatch(rows);
        } catch (IllegalArgumentException e) {
            throw new MalformedInput(e.getMessage(), e);
        }
    }

    private static PgSnapshot snapshot(BinaryReader in) {
        long xmin = in.i64("snapshot xmin");
        long xmax = in.i64("snapshot xmax");
        int count = in.u32("snapshot in-progress count");
        List<Long> xip = new ArrayList<>(Math.min(count, 1024));
        for (int i = 0; i < count; i++) {
            xip.add(in.i64("snapshot in-progress id"));
        }
        return PgSnapshot.of(xmin, xmax, xip);
    }

    private static byte[] required(String text, String what) {
        return ShortTexts.utf8(text).orElseThrow(() -> new IllegalArgumentException("The " + what + " '" + text
            + "' has no UTF-8 form of at most " + ShortTexts.MAX_BYTES + " bytes; send its rows one to a record"));
    }
}
