package io.tributary.topics.lifecycle;

import java.util.Optional;

/**
 * A running pipeline stage (ingest, the snapshot planner, snapshot workers, stream workers, a storage writer, the
 * sync API), as the process that runs it sees it: it reports a failure that stopped it for good, and it is closed
 * once. Each stage is started by its own factory or {@code start()} with its own typed configuration; from then on
 * every stage is watched and stopped the same way.
 *
 * <p>Contract: {@link #failure()} is empty while the stage runs or recovers by itself (a transient failure it
 * retries is not reported), and present once the stage stopped because of an error someone must fix; it never
 * becomes empty again. {@link #close()} stops the stage, releases what it holds, and is idempotent. Both may be
 * called from any thread.
 */
public interface Stage extends AutoCloseable {

    /** What the stage is, as messages name it ({@code "ingest"}, {@code "stream workers"}). */
    String stageName();

    /** The failure that stopped this stage for good, if one did. */
    Optional<Throwable> failure();

    /**
     * Stops the stage and releases what it holds; idempotent.
     *
     * @throws InterruptedException if the calling thread was interrupted while the stage stopped
     */
    @Override
    void close() throws InterruptedException;
}
