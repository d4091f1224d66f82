package io.tributary.chaos.infra;

import io.tributary.chaos.run.Phase;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * An infrastructure fault as it happened.
 *
 * @param at       when, since the faults began
 * @param intended the phase it was meant for
 * @param hit      the phase it hit (the newest group's state just before)
 * @param what     what it did, e.g. {@code kill -9 Kafka, down 3.2 s}
 */
public record InfraFault(Duration at, Phase intended, Phase hit, String what) {

    public InfraFault {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(intended, "intended");
        Objects.requireNonNull(hit, "hit");
        Objects.requireNonNull(what, "what");
    }

    /** Whether it hit the phase it was meant for. */
    public boolean hitIntendedPhase() {
        return intended == hit;
    }

    @Override
    public String toString() {
        return String.format("+%6.1f s %-9s %s%s", at.toMillis() / 1000.0, hit.name().toLowerCase(Locale.ROOT), what,
            hitIntendedPhase() ? "" : " (meant for " + intended.name().toLowerCase(Locale.ROOT) + ")");
    }
}
