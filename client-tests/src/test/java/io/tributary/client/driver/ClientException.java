package io.tributary.client.driver;

/** The client driver failed a command, did not answer in time or exited; the message holds its diagnostics. */
public final class ClientException extends RuntimeException {

    public ClientException(String message) {
        super(message);
    }
}
