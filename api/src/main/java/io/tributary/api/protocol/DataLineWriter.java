package io.tributary.api.protocol;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Writes {@code data} lines straight from stored bytes: a line's ops are appended one at a time from the columns
 * storage returns (table, row id and row JSON as UTF-8 bytes), and {@link #finish} closes the line. The row JSON is
 * copied as it is (embedded, for clients that ask for objects) or escaped into a string ({@code raw_data}), never
 * parsed. The line's shape is PowerSync's:
 * {@code {"data":{"bucket","after","next_after","has_more","data":[{op_id, op, object_type, object_id, subkey,
 * checksum, data}]}}}; a MOVE or CLEAR carries only {@code op_id}, {@code op}, {@code checksum} and a null
 * {@code data}.
 *
 * <p>Not thread-safe: one writer per reading thread; it reuses its buffers from line to line.
 */
public final class DataLineWriter {

    private static final byte[] NAME_SEPARATOR = {'/'};

    private final boolean rawData;
    private final JsonBytes ops = new JsonBytes(8 * 1024);
    private final JsonBytes line = new JsonBytes(8 * 1024);
    private final MessageDigest md5;
    private String bucket;
    private long after;
    private long last;
    private int count;

    /**
     * @param rawData whether a row goes as its JSON text in a string ({@code raw_data: true}) or as an object
     */
    public DataLineWriter(boolean rawData) {
        this.rawData = rawData;
        try {
            this.md5 = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is missing from this JVM", e);
        }
    }

    /**
     * Gives back the memory of the lines written so far (a stream waiting for its next checkpoint holds none); the
     * next line allocates it again. A line not finished is dropped.
     */
    public void release() {
        ops.release();
        line.release();
    }

    /** Starts the line of {@code bucket}'s ops after op id {@code after}; a line not finished is dropped. */
    public void start(String bucket, long after) {
        this.bucket = bucket;
        this.after = after;
        this.last = after;
        this.count = 0;
        ops.clear();
    }

    /** The bucket of the line being written. */
    public String bucket() {
        return bucket;
    }

    /** The ops appended since {@link #start}. */
    public int count() {
        return count;
    }

    /** The op id of the last op appended (the line's {@code next_after}), or its {@code after} before any. */
    public long lastOpId() {
        return last;
    }

    /**
     * Appends one op.
     *
     * @param opId     above the previous op's (and the line's {@code after})
     * @param op       the op kind
     * @param table    the output table name, UTF-8 (ignored for MOVE and CLEAR)
     * @param rowId    the row id, UTF-8 (likewise)
     * @param checksum the op's checksum, unsigned 32-bit
     * @param data     the row's JSON text, UTF-8, for a PUT; null otherwise
     */
    public void op(long opId, OpEntry.OpType op, byte[] table, byte[] rowId, long checksum, byte[] data) {
        if (opId <= last) {
            throw new IllegalArgumentException("Ops of " + bucket + " out of order: " + opId + " after " + last);
        }
        if ((op == OpEntry.OpType.PUT) != (data != null)) {
            throw new IllegalArgumentException(op + " " + opId + " of " + bucket
                + (data == null ? " lacks data" : " carries data"));
        }
        if (count > 0) {
            ops.ascii(',');
        }
        ops.ascii("{\"op_id\":").quotedNumber(opId).ascii(",\"op\":\"").ascii(op.name()).ascii('"');
        if (op == OpEntry.OpType.PUT || op == OpEntry.OpType.REMOVE) {
            ops.ascii(",\"object_type\":").string(table).ascii(",\"object_id\":").string(rowId)
                .ascii(",\"subkey\":");
            subkey(table, rowId);
        }
        ops.ascii(",\"checksum\":").number(checksum).ascii(",\"data\":");
        if (data == null) {
            ops.ascii("null");
        } else if (rawData) {
            ops.string(data);
        } else {
            ops.raw(data, 0, data.length);
        }
        ops.ascii('}');
        last = opId;
        count++;
    }

    /**
     * The finished line, ending in {@code \n}.
     *
     * @param hasMore whether more ops of the bucket up to the checkpoint follow in later lines
     * @throws IllegalStateException when no op was appended (a data line holds at least one)
     */
    public byte[] finish(boolean hasMore) {
        if (count == 0) {
            throw new IllegalStateException("A data line of " + bucket + " holds at least one op");
        }
        line.clear();
        line.ascii("{\"data\":{\"bucket\":").string(bucket).ascii(",\"after\":").quotedNumber(after)
            .ascii(",\"next_after\":").quotedNumber(last).ascii(",\"has_more\":").ascii(hasMore ? "true" : "false")
            .ascii(",\"data\":[").raw(ops).ascii("]}}\n");
        return line.toByteArray();
    }

    /**
     * The op's subkey: the name-based (MD5, version 3) UUID of {@code table + "/" + rowId}, as
     * {@link OpEntry#subkey()} computes it.
     */
    private void subkey(byte[] table, byte[] rowId) {
        md5.update(table);
        md5.update(NAME_SEPARATOR);
        byte[] hash = md5.digest(rowId);
        hash[6] = (byte) ((hash[6] & 0x0f) | 0x30);
        hash[8] = (byte) ((hash[8] & 0x3f) | 0x80);
        long most = 0;
        long least = 0;
        for (int i = 0; i < 8; i++) {
            most = (most << 8) | (hash[i] & 0xff);
            least = (least << 8) | (hash[i + 8] & 0xff);
        }
        ops.quotedUuid(most, least);
    }

    /** Writes the whole of {@code batch} as one line. */
    public byte[] line(DataBatch batch) {
        start(batch.bucket(), batch.after());
        for (OpEntry op : batch.ops()) {
            op(op.opId(), op.op(), bytes(op.objectType()), bytes(op.objectId()), op.checksum(),
                op.data() == null ? null : bytes(op.data()));
        }
        return finish(batch.hasMore());
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
