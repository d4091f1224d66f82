package io.tributary.postgres;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an operation against Postgres, retrying the failures {@link SqlErrors} calls retriable per a
 * {@link RetryPolicy} ({@link Backoff}), waiting with a {@link Sleeper} that ends at once on shutdown. Fatal
 * failures are thrown unchanged on the spot. The clock ({@code nanoTime}), jitter source and sleeper are injected,
 * so tests run without sleeping.
 *
 * <p>Thread-safe as long as the sleeper is (a {@link StopSignal} is): every call paces its own retries.
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
        /** {@code failure} was retriable; retry {@code retry} (1-based) follows after {@code backoff}. */
        void beforeRetry(Exception failure, int retry, Duration backoff);
    }

    private static final Logger LOG = LoggerFactory.getLogger(Retrier.class);

    private final RetryPolicy policy;
    private final Sleeper sleeper;
    private final LongSupplier nanoTime;
    private final DoubleSupplier jitter;

    /**
     * A retrier by {@code policy} that waits with {@code sleeper}, timed by {@code nanoTime} (monotonic, as
     * {@link System#nanoTime()}), with jitter drawn from {@code jitter} in [0, 1).
     */
    public Retrier(RetryPolicy policy, Sleeper sleeper, LongSupplier nanoTime, DoubleSupplier jitter) {
        this.policy = Objects.requireNonNull(policy, "policy");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.jitter = Objects.requireNonNull(jitter, "jitter");
    }

    /** A retrier by {@code policy} that waits with {@code sleeper}, on the system's clock and random jitter. */
    public static Retrier of(RetryPolicy policy, Sleeper sleeper) {
        return new Retrier(policy, sleeper, System::nanoTime, () -> ThreadLocalRandom.current().nextDouble());
    }

    /** {@link #call(String, Attempt, RetryListener)} with nothing to do between tries. */
    public <T> T call(String what, Attempt<T> attempt) throws Exception {
        return call(what, attempt, (failure, retry, backoff) -> { });
    }

    /**
     * Runs {@code attempt} until it succeeds, fails fatally, keeps failing past the deadline or shutdown is
     * requested.
     *
     * @param what     what the operation is, for messages (e.g. {@code "commit of rows-3@1200..1700"})
     * @param listener called before every retry
     * @throws RetriesExhaustedException if retriable failures lasted past the deadline (the cause is the last one)
     * @throws StoppedException          if shutdown was requested, or the thread interrupted (its flag is set
     *                                   again), while waiting to retry
     * @throws InterruptedException      if the attempt itself was interrupted (unchanged)
     * @throws Exception                 the first fatal failure, unchanged
     */
    public <T> T call(String what, Attempt<T> attempt, RetryListener listener) throws Exception {
        Objects.requireNonNull(what, "what");
        Objects.requireNonNull(attempt, "attempt");
        Objects.requireNonNull(listener, "listener");
        Backoff backoff = new Backoff(policy, nanoTime, jitter);
        while (true) {
            try {
                return attempt.run();
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                if (!SqlErrors.isRetriable(e)) {
                    throw e;
                }
                Duration wait = backoff.failed(what, e);
                LOG.warn("{} failed ({}), retry {} in {} ms", what, e.toString(), backoff.failures(), wait.toMillis());
                listener.beforeRetry(e, backoff.failures(), wait);
                if (!sleeper.pause(wait)) {
                    throw new StoppedException(what + " abandoned: "
                        + (Thread.currentThread().isInterrupted() ? "interrupted" : "shutting down"), e);
                }
            }
        }
    }
}
