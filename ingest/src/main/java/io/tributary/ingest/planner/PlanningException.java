package io.tributary.ingest.planner;

/**
 * A planning round could not finish (Kafka refused a record; the next round resumes where it stopped), or a
 * requested snapshot cannot start yet (its table is not captured yet).
 */
public final class PlanningException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public PlanningException(String message) {
        super(message);
    }

    public PlanningException(String message, Throwable cause) {
        super(message, cause);
    }
}
