package io.tributary.testing.random;

import java.util.concurrent.ThreadLocalRandom;

/**
 * The seed of a random test: the one passed in through a system property, else a fresh random one. Either way it
 * is printed (one line, {@code seed N (repeat: -Dproperty=N)}) before the test uses it, so every run can be
 * repeated with the seed it printed.
 */
public final class Seeds {

    private Seeds() {
    }

    /**
     * The seed in system property {@code property} (a decimal {@code long}), else a random seed in [1, 10^9).
     *
     * @throws IllegalArgumentException if the property is set but is not a number
     */
    public static long fromProperty(String property) {
        String configured = System.getProperty(property, "").trim();
        long seed;
        if (configured.isEmpty()) {
            seed = ThreadLocalRandom.current().nextLong(1, 1_000_000_000L);
        } else {
            try {
                seed = Long.parseLong(configured);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("-D" + property + " must be a number, got '" + configured + "'", e);
            }
        }
        System.out.println(describe(property, seed));
        return seed;
    }

    /** The line {@link #fromProperty} prints: {@code seed N (repeat: -Dproperty=N)}. */
    public static String describe(String property, long seed) {
        return "seed " + seed + " (repeat: -D" + property + "=" + seed + ")";
    }
}
