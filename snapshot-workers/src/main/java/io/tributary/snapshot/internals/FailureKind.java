package io.tributary.snapshot.internals;

/** What a failed chunk attempt means for the work. */
public enum FailureKind {
    /** Transient (connection loss, serialization failure, Kafka timeout): retry as a new attempt after a backoff. */
    RETRIABLE,
    /** Permanent for the table (missing table, permission, unencodable value, oversized row): fail its window. */
    TABLE,
    /** Permanent for the worker (producer fenced or closed, storage schema missing): stop the loop. */
    WORKER
}
