package io.tributary.topics.codec.internals;

/** Field names of value envelopes. */
final class Fields {

    static final String VERSION = "v";
    static final String TYPE = "type";
    static final String TABLE = "table";
    static final String OP = "op";
    static final String PK = "pk";
    static final String ROW = "row";
    static final String LSN = "lsn";
    static final String SEQ = "seq";
    static final String TX = "tx";
    static final String EPOCH = "epoch";
    static final String WINDOW = "window";
    static final String CHUNK = "chunk";
    static final String LO = "lo";
    static final String HI = "hi";
    static final String ATTEMPT = "attempt";
    static final String PRIORITY = "priority";
    static final String SNAPSHOT = "snapshot";
    static final String HIGH_WATERMARK = "hw";
    static final String ROW_COUNT = "rows";
    static final String CHUNK_COUNT = "chunks";
    static final String SOURCE = "src";
    static final String SOURCE_STREAM = "s";
    static final String SOURCE_CHUNK = "c";

    private Fields() {
    }
}
