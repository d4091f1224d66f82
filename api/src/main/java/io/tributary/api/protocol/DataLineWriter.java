package io.tributary.api.protocol;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Writes {@code data} lines straight from stored bytes: a line's ops are appended one at a time from the columns
 * storage returns (table, row id and row JSON as UTF-8 bytes), and {@link #finish} closes the line. The line's shape
 * is PowerSync's:
 * {@code {"data":{"bucket","after","next_after","has_more","data":[{op_id, op, object_type, object_id, subkey,
 * checksum, data}]}}}; a MOVE or CLEAR carries only {@code op_id}, {@code op}, {@code checksum} and a null
 * {@code data}.
 *
 * <p>In {@link WireFormat#NDJSON} the row JSON is copied as it is (embedded, for clients that ask for objects) or
 * escaped into a string ({@code raw_data}); in {@link WireFormat#BSON} the line is the BSON document
 * {@link BsonLines} makes of the NDJSON line, written directly: the row JSON is copied into a BSON string as it is
 * (BSON strings carry their length, nothing is escaped), and nothing is parsed in either format.
 *
 * <p>Not thread-safe: one writer per reading thread; it reuses its buffers from line to line.
 */
public final class DataLineWriter {

    private static final byte[] NAME_SEPARATOR = {'/'};
    private static final byte[] DATA = BsonBytes.name("data");
    private static final byte[] BUCKET = BsonBytes.name("bucket");
    private static final byte[] AFTER = BsonBytes.name("after");
    private static final byte[] NEXT_AFTER = BsonBytes.name("next_after");
    private static final byte[] HAS_MORE = BsonBytes.name("has_more");
    private static final byte[] OP_ID = BsonBytes.name("op_id");
    private static final byte[] OP = BsonBytes.name("op");
    private static final byte[] OBJECT_TYPE = BsonBytes.name("object_type");
    private static final byte[] OBJECT_ID = BsonBytes.name("object_id");
    private static final byte[] SUBKEY = BsonBytes.name("subkey");
    private static final byte[] CHECKSUM = BsonBytes.name("checksum");
    private static final byte[][] OP_NAMES = new byte[OpEntry.OpType.values().length][];

    static {
        for (OpEntry.OpType type : OpEntry.OpType.values()) {
            OP_NAMES[type.ordinal()] = type.name().getBytes(StandardCharsets.US_ASCII);
        }
    }

    private final boolean rawData;
    private final boolean bson;
    private final JsonBytes ops;
    private final JsonBytes line;
    private final BsonBytes bsonOps;
    private final BsonBytes bsonLine;
    private final MessageDigest md5;
    private String bucket;
    private long after;
    private long last;
    private int count;
    private long subkeyMost;
    private long subkeyLeast;

    /**
     * An NDJSON writer.
     *
     * @param rawData whether a row goes as its JSON text in a string ({@code raw_data: true}) or as an object
     */
    public DataLineWriter(boolean rawData) {
        this(rawData, WireFormat.NDJSON);
    }

    /**
     * @param rawData whether a row goes as its JSON text in a string ({@code raw_data: true}) or as an object; a BSON
     *                line always carries the text, the only form the clients that read BSON take
     * @param format  the format of the lines
     * @throws IllegalArgumentException for BSON lines without {@code rawData}
     */
    public DataLineWriter(boolean rawData, WireFormat format) {
        this.rawData = rawData;
        this.bson = format == WireFormat.BSON;
        if (bson && !rawData) {
            throw new IllegalArgumentException("BSON data lines carry each row as its JSON text (raw_data)");
        }
        this.ops = bson ? null : new JsonBytes(8 * 1024);
        this.line = bson ? null : new JsonBytes(8 * 1024);
        this.bsonOps = bson ? new BsonBytes(8 * 1024) : null;
        this.bsonLine = bson ? new BsonBytes(8 * 1024) : null;
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
        if (bson) {
            bsonOps.release();
            bsonLine.release();
        } else {
            ops.release();
            line.release();
        }
    }

    /** Starts the line of {@code bucket}'s ops after op id {@code after}; a line not finished is dropped. */
    public void start(String bucket, long after) {
        this.bucket = bucket;
        this.after = after;
        this.last = after;
        this.count = 0;
        if (bson) {
            bsonOps.clear();
        } else {
            ops.clear();
        }
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
        if (bson) {
            bsonOp(opId, op, table, rowId, checksum, data);
        } else {
            jsonOp(opId, op, table, rowId, checksum, data);
        }
        last = opId;
        count++;
    }

    private void jsonOp(long opId, OpEntry.OpType op, byte[] table, byte[] rowId, long checksum, byte[] data) {
        if (count > 0) {
            ops.ascii(',');
        }
        ops.ascii("{\"op_id\":").quotedNumber(opId).ascii(",\"op\":\"").ascii(op.name()).ascii('"');
        if (op == OpEntry.OpType.PUT || op == OpEntry.OpType.REMOVE) {
            ops.ascii(",\"object_type\":").string(table).ascii(",\"object_id\":").string(rowId)
                .ascii(",\"subkey\":");
            subkey(table, rowId);
            ops.quotedUuid(subkeyMost, subkeyLeast);
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
    }

    private void bsonOp(long opId, OpEntry.OpType op, byte[] table, byte[] rowId, long checksum, byte[] data) {
        int document = bsonOps.startDocument(count);
        bsonOps.decimalString(OP_ID, opId).string(OP, OP_NAMES[op.ordinal()]);
        if (op == OpEntry.OpType.PUT || op == OpEntry.OpType.REMOVE) {
            bsonOps.string(OBJECT_TYPE, table).string(OBJECT_ID, rowId);
            subkey(table, rowId);
            bsonOps.uuidString(SUBKEY, subkeyMost, subkeyLeast);
        }
        bsonOps.integer(CHECKSUM, checksum);
        if (data == null) {
            bsonOps.nullValue(DATA);
        } else {
            bsonOps.string(DATA, data);
        }
        bsonOps.end(document);
    }

    /**
     * The finished line: NDJSON ending in {@code \n}, or one BSON document.
     *
     * @param hasMore whether more ops of the bucket up to the checkpoint follow in later lines
     * @throws IllegalStateException when no op was appended (a data line holds at least one)
     */
    public byte[] finish(boolean hasMore) {
        if (count == 0) {
            throw new IllegalStateException("A data line of " + bucket + " holds at least one op");
        }
        if (bson) {
            return bsonLine(hasMore);
        }
        line.clear();
        line.ascii("{\"data\":{\"bucket\":").string(bucket).ascii(",\"after\":").quotedNumber(after)
            .ascii(",\"next_after\":").quotedNumber(last).ascii(",\"has_more\":").ascii(hasMore ? "true" : "false")
            .ascii(",\"data\":[").raw(ops).ascii("]}}\n");
        return line.toByteArray();
    }

    private byte[] bsonLine(boolean hasMore) {
        bsonLine.clear();
        int document = bsonLine.startDocument();
        int body = bsonLine.startDocument(DATA);
        bsonLine.string(BUCKET, bucket.getBytes(StandardCharsets.UTF_8)).decimalString(AFTER, after)
            .decimalString(NEXT_AFTER, last).bool(HAS_MORE, hasMore);
        int array = bsonLine.startArray(DATA);
        bsonLine.raw(bsonOps);
        bsonLine.end(array);
        bsonLine.end(body);
        bsonLine.end(document);
        return bsonLine.toByteArray();
    }

    /**
     * Computes the op's subkey into {@link #subkeyMost} and {@link #subkeyLeast}: the name-based (MD5, version 3)
     * UUID of {@code table + "/" + rowId}, as {@link OpEntry#subkey()} computes it.
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
        subkeyMost = most;
        subkeyLeast = least;
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
