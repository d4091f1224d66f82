package io.tributary.launcher.env;

import io.tributary.postgres.RetryPolicy;
import io.tributary.postgres.SqlErrors;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a long-running process meets services that are not up yet: a start step that talks to Kafka, the source or
 * storage is tried again while its failure is one a restart of that service explains (a refused or dropped
 * connection, a server starting or shutting down, a timeout), with capped backoff, until {@code startup.wait_seconds}
 * have passed since the step's first failure. Services started together (docker-compose, Kubernetes) or restarted
 * while Tributary starts then cost a wait, not a crash loop. A failure no wait can fix (wrong password, missing
 * database, bad client settings) ends the step at once, and so does the last failure once the wait is over: the
 * caller reports it with the address and the key to check. One-shot commands use {@link #NONE}.
 *
 * <p>Whether a failure is worth waiting for is decided here: {@link SqlErrors} for Postgres, Kafka's own
 * {@link RetriableException} and timeouts for Kafka, authentication and authorization never.
 */
public final class StartupWait {

    /** A step is tried once. */
    public static final StartupWait NONE = new StartupWait(Duration.ZERO);

    private static final Logger LOG = LoggerFactory.getLogger(StartupWait.class);
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(250);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(5);
    private static final int MAX_CAUSES = 32;

    /** One start step. */
    @FunctionalInterface
    public interface Step<T> {
        /** Tries the step once. */
        T run() throws Exception;
    }

    private final Duration limit;

    private StartupWait(Duration limit) {
        this.limit = Objects.requireNonNull(limit, "limit");
    }

    /** Waits for at most {@code limit} per step ({@code startup.wait_seconds}); zero = try once. */
    public static StartupWait upTo(Duration limit) {
        if (limit.isNegative()) {
            throw new IllegalArgumentException("A negative startup wait: " + limit);
        }
        return limit.isZero() ? NONE : new StartupWait(limit);
    }

    /** The end of a message about a step that kept failing: how long it was waited for, and the key. */
    public String gaveUp() {
        return "; gave up after waiting " + limit.toSeconds() + " s (startup.wait_seconds)";
    }

    /** How long one step may keep failing. */
    public Duration limit() {
        return limit;
    }

    /**
     * Runs {@code step} until it succeeds, fails in a way waiting cannot fix, or keeps failing for longer than
     * the limit; the failure that ends it is thrown unchanged.
     *
     * @param what what the step waits for, for the log (e.g. "storage Postgres at jdbc:postgresql://db/app")
     * @throws InterruptedException if interrupted while waiting (the process is shutting down)
     */
    public <T> T until(String what, Step<T> step) throws Exception {
        long started = System.nanoTime();
        RetryPolicy backoff = RetryPolicy.withoutDeadline(FIRST_BACKOFF, MAX_BACKOFF);
        for (int retry = 1; ; retry++) {
            try {
                return step.run();
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                Duration waited = Duration.ofNanos(System.nanoTime() - started);
                Duration pause = backoff.backoff(retry, ThreadLocalRandom.current().nextDouble());
                if (!isWorthWaitingFor(e) || waited.plus(pause).compareTo(limit) > 0) {
                    throw e;
                }
                LOG.warn("Waiting for {} ({} s of {} s): {}; retrying in {} ms", what, waited.toSeconds(),
                    limit.toSeconds(), e.getMessage(), pause.toMillis());
                Thread.sleep(pause.toMillis());
            }
        }
    }

    /** Whether a failure is one a service that is starting, restarting or briefly unreachable explains. */
    public static boolean isWorthWaitingFor(Throwable failure) {
        if (SqlErrors.isRetriable(failure)) {
            return true;
        }
        Throwable t = failure;
        for (int depth = 0; t != null && depth < MAX_CAUSES; depth++) {
            if (t instanceof AuthenticationException || t instanceof AuthorizationException) {
                return false;
            }
            if (t instanceof RetriableException || t instanceof java.util.concurrent.TimeoutException) {
                return true;
            }
            t = t.getCause() == t ? null : t.getCause();
        }
        return false;
    }
}
