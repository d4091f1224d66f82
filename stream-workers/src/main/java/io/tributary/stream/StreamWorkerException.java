package io.tributary.stream;

/** The stream workers cannot start or failed while running; the message says which topic or task and why. */
public final class StreamWorkerException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public StreamWorkerException(String message) {
        super(message);
    }

    public StreamWorkerException(String message, Throwable cause) {
        super(message, cause);
    }
}
