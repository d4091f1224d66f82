package io.tributary.chaos.infra;

/** An infrastructure scenario run could not be carried out; the message names the scenario, seed and logs. */
public final class InfraRunException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public InfraRunException(String message, Throwable cause) {
        super(message, cause);
    }
}
