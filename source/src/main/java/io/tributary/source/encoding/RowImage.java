package io.tributary.source.encoding;

/** What a change event's row struct is, which decides what a NULL may mean in it. */
public enum RowImage {
    /**
     * Every column carries its value: inserts, old tuples under {@code REPLICA IDENTITY FULL}, and new tuples of
     * updates on {@code REPLICA IDENTITY FULL} tables (Debezium fills unchanged TOASTed values from the old
     * tuple). Debezium's placeholder is still detected, defensively.
     */
    COMPLETE,
    /**
     * The new tuple of an UPDATE on a table whose replica identity is not {@code FULL}: unchanged TOASTed values
     * are not in the WAL. Debezium 3.6 marks them with its placeholder for most types, but for arrays of
     * {@code bool}, {@code int2}, {@code numeric}, {@code float4}, {@code float8}, {@code timestamp},
     * {@code timestamptz} and enums it fails to convert the placeholder and emits NULL, so a NULL in those columns
     * counts as unavailable too (the caller re-reads; rarely needed, never wrong).
     */
    UPDATE_NEW_TUPLE
}
