package io.tributary.source.catalog;

/** Where a table's key columns come from. */
public enum KeySource {
    /** The table's primary key. */
    PRIMARY_KEY,
    /** No primary key: the unique, non-partial index on NOT NULL columns chosen by {@code REPLICA IDENTITY USING
     * INDEX}. */
    REPLICA_IDENTITY_INDEX
}
