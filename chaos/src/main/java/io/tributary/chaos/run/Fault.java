package io.tributary.chaos.run;

import io.tributary.chaos.harness.ProcessRole;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * One planned fault.
 *
 * @param phase   the phase it is meant for
 * @param delay   how long after the phase began it fires (faults of a phase fire in delay order)
 * @param kind    what it does
 * @param role    to which role's processes
 * @param downFor for {@link FaultKind#KILL}: how long the slot stays empty before the restart
 */
public record Fault(Phase phase, Duration delay, FaultKind kind, ProcessRole role, Duration downFor) {

    public Fault {
        Objects.requireNonNull(phase, "phase");
        Objects.requireNonNull(delay, "delay");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(downFor, "downFor");
        if (delay.isNegative() || downFor.isNegative()) {
            throw new IllegalArgumentException("Negative delay or down time: " + delay + ", " + downFor);
        }
    }

    @Override
    public String toString() {
        return kind + " " + role.shortName() + " (" + phase.name().toLowerCase(Locale.ROOT) + " +"
            + delay.toMillis() / 1000.0 + " s" + (kind == FaultKind.KILL || kind == FaultKind.KILL_MID_TRANSACTION
            ? ", down " + downFor.toMillis() / 1000.0
            + " s" : "") + ")";
    }
}
