package io.tributary.writer.apply;

/** The kinds of bucket ops the writer emits, with their {@code bucket_data.op} codes. */
public enum OpKind {
    /** The row is in the bucket with this data. */
    PUT(1),
    /** The row left the bucket (moved, filtered out or deleted). */
    REMOVE(2);

    private final int code;

    OpKind(int code) {
        this.code = code;
    }

    /** The {@code bucket_data.op} value. */
    public int code() {
        return code;
    }
}
