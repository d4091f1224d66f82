package io.tributary.source.catalog;

/**
 * A table's {@code REPLICA IDENTITY} ({@code pg_class.relreplident}): which old column values the WAL carries for
 * updates and deletes.
 */
public enum ReplicaIdentity {
    /** The primary key columns ({@code 'd'}); none if the table has no primary key. */
    DEFAULT('d'),
    /** Every column ({@code 'f'}): updates carry the complete old row, unchanged TOASTed values included. */
    FULL('f'),
    /** The columns of the index chosen with {@code REPLICA IDENTITY USING INDEX} ({@code 'i'}). */
    INDEX('i'),
    /** Nothing ({@code 'n'}): deletes do not say which row went away. */
    NOTHING('n');

    private final char code;

    ReplicaIdentity(char code) {
        this.code = code;
    }

    /** The {@code pg_class.relreplident} code. */
    public char code() {
        return code;
    }

    /** The identity for a {@code pg_class.relreplident} code. */
    public static ReplicaIdentity ofCode(char code) {
        for (ReplicaIdentity identity : values()) {
            if (identity.code == code) {
                return identity;
            }
        }
        throw new IllegalArgumentException("Unknown pg_class.relreplident '" + code + "'");
    }
}
