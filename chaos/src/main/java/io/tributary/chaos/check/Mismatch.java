package io.tributary.chaos.check;

import java.util.Objects;

/**
 * One difference a checker found.
 *
 * @param check    which check, e.g. {@code buckets}, {@code rows-topic}, {@code checkpoint}
 * @param key      what differs, e.g. {@code by_owner["u3"]/items/42}
 * @param expected the expected value ({@code (absent)} if there should be none)
 * @param actual   the actual value ({@code (absent)} if there is none)
 */
public record Mismatch(String check, String key, String expected, String actual) {

    /** Stands for a missing value. */
    public static final String ABSENT = "(absent)";
    private static final int MAX_VALUE_CHARS = 400;

    public Mismatch {
        Objects.requireNonNull(check, "check");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(expected, "expected");
        Objects.requireNonNull(actual, "actual");
    }

    /** A mismatch whose values may be absent (null). */
    public static Mismatch of(String check, String key, String expected, String actual) {
        return new Mismatch(check, key, expected == null ? ABSENT : expected, actual == null ? ABSENT : actual);
    }

    @Override
    public String toString() {
        return "[" + check + "] " + key + ": expected " + abbreviate(expected) + ", actual " + abbreviate(actual);
    }

    private static String abbreviate(String value) {
        return value.length() <= MAX_VALUE_CHARS ? value
            : value.substring(0, MAX_VALUE_CHARS) + "... (" + value.length() + " chars)";
    }
}
