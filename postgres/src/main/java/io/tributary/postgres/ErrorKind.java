package io.tributary.postgres;

/** Whether an operation that failed may succeed when retried (after a backoff), or never will without a fix. */
public enum ErrorKind {
    /** Transient: connection loss, serialization failure, deadlock, resource shortage, server restarting. */
    RETRIABLE,
    /** Permanent until someone changes something: authentication, privileges, schema, bad data, bugs. */
    FATAL;

    public boolean isRetriable() {
        return this == RETRIABLE;
    }
}
