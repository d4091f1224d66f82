package io.tributary.chaos.run;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * A fault as it happened.
 *
 * @param at      when, since the ingest started
 * @param fault   the planned fault
 * @param outcome what it did, e.g. {@code kill -9 stream-worker-2.1 (pid 4711), restarted as stream-worker-2.2}
 * @param hit     the phase it actually hit (the group's state then), which may differ from the planned one
 */
public record InjectedFault(Duration at, Fault fault, String outcome, Phase hit) {

    /** How the outcome of a fault that found nothing to act on starts, e.g. no second process to remove. */
    public static final String SKIPPED = "skipped: ";

    public InjectedFault {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(fault, "fault");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(hit, "hit");
    }

    /** Whether it did something (it was not {@link #SKIPPED}). */
    public boolean applied() {
        return !outcome.startsWith(SKIPPED);
    }

    @Override
    public String toString() {
        return String.format("+%6.1f s %-9s %s", at.toMillis() / 1000.0, hit.name().toLowerCase(Locale.ROOT),
            outcome);
    }
}
