package io.tributary.api.protocol;

/** A request the sync protocol cannot serve (HTTP 400); the message names the field and what is expected. */
public final class ProtocolException extends Exception {

    private static final long serialVersionUID = 1L;

    public ProtocolException(String message) {
        super(message);
    }
}
