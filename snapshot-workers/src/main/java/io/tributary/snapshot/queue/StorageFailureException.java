package io.tributary.snapshot.queue;

/** The storage database refused an operation for good (not a transient failure): the worker loop stops. */
public final class StorageFailureException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public StorageFailureException(String message, Throwable cause) {
        super(message, cause);
    }
}
