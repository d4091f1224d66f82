package io.tributary.api.auth;

/** A request's token is missing or not acceptable; the message says what is wrong (never the token itself). */
public final class AuthException extends Exception {

    private static final long serialVersionUID = 1L;

    public AuthException(String message) {
        super(message);
    }

    public AuthException(String message, Throwable cause) {
        super(message, cause);
    }
}
