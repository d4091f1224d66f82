package io.tributary.syncrules.internals.sql;

/**
 * A problem in one SQL query of the sync rules, at a character offset within the query text.
 * The YAML reader turns the offset into a line and column of the document.
 */
public final class SqlException extends Exception {

    private static final long serialVersionUID = 1L;

    private final int offset;

    public SqlException(int offset, String message) {
        super(message);
        if (offset < 0) {
            throw new IllegalArgumentException("offset must be >= 0, got " + offset);
        }
        this.offset = offset;
    }

    /** The 0-based offset of the problem within the SQL text (may equal the text's length: at its end). */
    public int offset() {
        return offset;
    }
}
