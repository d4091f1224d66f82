package io.tributary.postgres;

import java.time.Duration;

/**
 * How a retry loop waits between tries: the production one is a {@link StopSignal}, which ends the wait at once on
 * shutdown; tests inject one that only advances a fake clock, so they never sleep.
 */
@FunctionalInterface
public interface Sleeper {

    /**
     * Waits {@code duration} unless shutdown comes first.
     *
     * @return true if the full duration passed, false if shutdown was requested or the thread was interrupted (the
     *         interrupt flag is then set again)
     */
    boolean pause(Duration duration);
}
