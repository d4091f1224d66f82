package io.tributary.writer.internals;

/** Whether a failed operation is worth retrying. */
public enum FailureKind {
    /** Transient (connection loss, serialization failure, deadlock, server restarting): retry with backoff. */
    RETRIABLE,
    /** Anything else: stop and report it. */
    FATAL
}
