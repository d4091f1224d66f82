package io.tributary.chaos.services;

import java.nio.file.Path;

/**
 * A server a fault scenario can take down and bring back on the same address with its data kept. Thread-safe.
 */
public interface RestartableService extends AutoCloseable {

    /**
     * Starts the server and waits until it answers.
     *
     * @throws IllegalStateException if it runs
     * @throws ServiceException      if it does not answer in time (its processes are killed then)
     */
    void start();

    /** Stops the server the way an operator would (the server's own clean shutdown); no-op if it is not running. */
    void stop();

    /** {@code kill -9} of the server's processes; returns once they are gone. No-op if it is not running. */
    void kill();

    /** Whether the server's process is alive (it may not answer yet or any more). */
    boolean isRunning();

    /** The server's output, of every incarnation. */
    Path log();

    /** Kills the server ({@link #kill()}); its data is kept. */
    @Override
    default void close() {
        kill();
    }
}
