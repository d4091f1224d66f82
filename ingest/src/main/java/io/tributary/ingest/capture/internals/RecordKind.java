package io.tributary.ingest.capture.internals;

/** What a record from the Debezium Postgres connector is, as far as capture cares. */
enum RecordKind {
    /** Transaction metadata: a transaction starts ({@code provide.transaction.metadata}). */
    TX_BEGIN,
    /** Transaction metadata: a transaction committed; its offset carries {@code lsn_commit}. */
    TX_END,
    /** A Debezium heartbeat. */
    HEARTBEAT,
    /** A row change or truncation of a table. */
    CHANGE,
    /** A logical decoding message ({@code pg_logical_emit_message}) of an included prefix. */
    MESSAGE,
    /** Anything else (tombstones, schema changes): ignored. */
    OTHER
}
