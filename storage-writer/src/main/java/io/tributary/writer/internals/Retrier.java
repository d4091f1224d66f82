package io.tributary.writer.internals;

import java.time.Duration;
import java.util.Objects;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an operation, retrying retriable failures ({@link Failures}) per a {@link RetryPolicy} and stopping at once
 * when its {@link StopSignal} fires. The clock ({@code nanoTime}) and jitter source are injected for tests.
 *
 * <p>Not thread-safe: one per thread.
 */
public final class Retrier {

    /** An operation that may fail with any exception. */
    @FunctionalInterface
    public interface Attempt<T> {
        /** Runs the operation once. */
        T run() throws Exception;
    }

    /** Called before each retry, e.g. to replace a broken connection or count retries. */
    @FunctionalInterface
    public interface RetryListener {
        /** {@code failure} was retriable; retry {@code attempt} follows after {@code backoff}. */
        void beforeRetry(Exception failure, int attempt, Duration backoff);
    }

    private static final Logger LOG = LoggerFactory.getLogger(Retrier.class);

    private final RetryPolicy policy;
    private final StopSignal stop;
    private final LongSupplier nanoTime;
    private final DoubleSupplier jitter;

    /** A retrier with the given policy, shutdown signal, clock ({@code System::nanoTime}) and jitter source. */
    public Retrier(RetryPolicy policy, StopSignal stop, LongSupplier nanoTime, DoubleSupplier jitter) {
        this.policy = Objects.requireNonNull(policy, "policy");
        this.stop = Objects.requireNonNull(stop, "stop");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.jitter = Objects.requireNonNull(jitter, "jitter");
    }

    /**
     * Runs {@code attempt} until it succeeds, fails fatally, exceeds the deadline or shutdown is requested.
     *
     * @param what     what the operation is, for messages (e.g. {@code "commit of rows-3@1200..1700"})
     * @param listener called before every retry
     * @throws RetriesExhaustedException if retriable failures lasted past the deadline
     * @throws StoppedException          if shutdown was requested while waiting to retry
     * @throws InterruptedException      if the thread was interrupted while waiting
     * @throws Exception                 the first fatal failure, unchanged
     */
    public <T> T call(String what, Attempt<T> attempt, RetryListener listener) throws Exception {
        long start = nanoTime.getAsLong();
        int failures = 0;
        while (true) {
            try {
                return attempt.run();
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                if (!Failures.isRetriable(e)) {
                    throw e;
                }
                failures++;
                long elapsed = nanoTime.getAsLong() - start;
                if (elapsed > policy.deadline().toNanos()) {
                    throw new RetriesExhaustedException(what + " kept failing for " + Duration.ofNanos(elapsed)
                        + " (" + failures + " attempts, deadline " + policy.deadline() + ")", e);
                }
                Duration backoff = policy.backoff(failures, jitter.getAsDouble());
                LOG.warn("{} failed ({}), retry {} in {} ms", what, e.toString(), failures, backoff.toMillis());
                listener.beforeRetry(e, failures, backoff);
                if (!stop.pause(backoff)) {
                    throw new StoppedException(what + " abandoned: shutting down", e);
                }
            }
        }
    }
}
