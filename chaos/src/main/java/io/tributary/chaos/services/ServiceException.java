package io.tributary.chaos.services;

/** A restartable service did not start, stop or answer as asked; the message names the service and the step. */
public final class ServiceException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ServiceException(String message) {
        super(message);
    }

    public ServiceException(String message, Throwable cause) {
        super(message, cause);
    }
}
