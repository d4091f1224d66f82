package io.tributary.launcher.cli;

/** Process exit codes scripts can rely on. */
public final class ExitCodes {

    /** Done. */
    public static final int OK = 0;
    /** A runtime failure (a service failed while running). */
    public static final int FAILURE = 1;
    /** The input is wrong: usage, configuration, sync rules; nothing was changed. */
    public static final int BAD_INPUT = 2;
    /** The group has no checkpoint yet, so there is nothing a client could download. */
    public static final int NO_CHECKPOINT = 3;
    /** A configured service (Kafka, source, storage) cannot be reached. */
    public static final int UNAVAILABLE = 4;

    private ExitCodes() {
    }
}
