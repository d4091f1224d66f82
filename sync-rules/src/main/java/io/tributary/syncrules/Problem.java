package io.tributary.syncrules;

import java.util.Comparator;
import java.util.Objects;

/**
 * One thing wrong with a sync rules document.
 *
 * @param line    1-based line in the YAML document
 * @param column  1-based column (in code points) in that line
 * @param message what is wrong
 */
public record Problem(int line, int column, String message) implements Comparable<Problem> {

    private static final Comparator<Problem> ORDER =
        Comparator.comparingInt(Problem::line).thenComparingInt(Problem::column).thenComparing(Problem::message);

    public Problem {
        if (line < 1 || column < 1) {
            throw new IllegalArgumentException("line and column are 1-based, got " + line + ":" + column);
        }
        Objects.requireNonNull(message, "message");
    }

    @Override
    public int compareTo(Problem other) {
        return ORDER.compare(this, other);
    }

    /** {@code line L, column C: message}. */
    @Override
    public String toString() {
        return "line " + line + ", column " + column + ": " + message;
    }
}
