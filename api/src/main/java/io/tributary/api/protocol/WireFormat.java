package io.tributary.api.protocol;

/**
 * How a sync stream's lines go on the wire. The stream's lines are made as NDJSON ({@link LineEncoder}) and put in
 * the stream's format by {@link #line}; its {@code data} lines, most of its bytes, are written in the format
 * directly ({@link DataLineWriter}).
 *
 * <p>Thread-safe.
 */
public enum WireFormat {

    /** {@code application/x-ndjson}: one JSON object per line, each ending in {@code \n}. */
    NDJSON {
        @Override
        public byte[] line(byte[] ndjson) {
            return ndjson;
        }
    },
    /**
     * {@code application/vnd.powersync.bson-stream}: one BSON document after another, each starting with its length,
     * with the fields of the NDJSON line in the same order ({@link BsonLines}).
     */
    BSON {
        @Override
        public byte[] line(byte[] ndjson) {
            return BsonLines.document(ndjson);
        }
    };

    /** The line {@code ndjson} (one JSON object, optionally followed by {@code \n}) in this format. */
    public abstract byte[] line(byte[] ndjson);
}
