package io.tributary.syncrules;

/**
 * How output values are written, as PowerSync's compatibility editions define it: chosen in the rules with
 * {@code config: edition: <n>}.
 *
 * <p>The editions differ only in temporal values: {@link #LEGACY} writes timestamps as PowerSync always has
 * ({@code 2024-01-02 01:04:05.123Z}: a space between date and time, fraction digits as Postgres prints them), and
 * {@link #ISO_8601} writes ISO 8601 with six fraction digits ({@code 2024-01-02T01:04:05.123000Z}), and times of
 * day with six fraction digits too. See {@code docs/sync-rules.md} for every type.
 */
public enum Edition {
    /** Edition 1, the default. */
    LEGACY(1),
    /** Edition 2. */
    ISO_8601(2);

    private final int number;

    Edition(int number) {
        this.number = number;
    }

    /** The edition's number in the rules' {@code config}. */
    public int number() {
        return number;
    }
}
