package io.tributary.ingest.capture;

/**
 * The source database cannot be captured as it is configured: someone has to change the database, a table, a
 * role or the Tributary configuration. Never worth retrying. The message names what is wrong and how to fix it.
 */
public class CaptureSetupException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public CaptureSetupException(String message) {
        super(message);
    }

    public CaptureSetupException(String message, Throwable cause) {
        super(message, cause);
    }
}
