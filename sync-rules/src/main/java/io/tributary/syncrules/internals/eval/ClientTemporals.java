package io.tributary.syncrules.internals.eval;

import io.tributary.syncrules.Edition;
import java.util.Optional;

/**
 * PowerSync's text of the temporal values of canonical rows. The canonical row encoding writes {@code timestamp}
 * as {@code YYYY-MM-DDTHH:MM:SS.ffffff}, {@code timestamptz} the same with {@code Z}, {@code time} as
 * {@code HH:MM:SS.ffffff} and {@code timetz} as that UTC time with {@code Z}; these fixed-width forms are recognized
 * by shape (the rows carry no column types), so a text value of exactly one of these shapes is rewritten too.
 *
 * <ul>
 *   <li>{@link Edition#LEGACY}: a timestamp as Postgres prints it, a space between date and time and trailing zeros of
 *       the fraction removed ({@code 2024-01-02 01:04:05.123}, {@code 2024-01-02 01:04:05Z}); a time likewise
 *       ({@code 01:04:05.5}).</li>
 *   <li>{@link Edition#ISO_8601}: timestamps and times as the canonical form writes them.</li>
 *   <li>A {@code timetz} in both editions as Postgres prints it in UTC: {@code 01:04:05.5+00}.</li>
 * </ul>
 * Stateless and thread-safe.
 */
final class ClientTemporals {

    private static final String TIMESTAMP = "dddd-dd-ddTdd:dd:dd.dddddd";
    private static final String TIME = "dd:dd:dd.dddddd";

    private ClientTemporals() {
    }

    /** Whether a text of {@code length} characters may have a temporal shape (and so be rewritten). */
    static boolean mayRewrite(int length) {
        return length == TIMESTAMP.length() || length == TIMESTAMP.length() + 1 || length == TIME.length()
            || length == TIME.length() + 1;
    }

    /** PowerSync's text of {@code text} if it has the shape of a canonical temporal value, else empty. */
    static Optional<String> clientText(String text, Edition edition) {
        int length = text.length();
        if (length == TIMESTAMP.length() || length == TIMESTAMP.length() + 1) {
            if (!matches(text, TIMESTAMP)) {
                return Optional.empty();
            }
            boolean zoned = length > TIMESTAMP.length();
            if (zoned && text.charAt(TIMESTAMP.length()) != 'Z') {
                return Optional.empty();
            }
            if (edition == Edition.ISO_8601) {
                return Optional.of(text);
            }
            return Optional.of(trimFraction(text.substring(0, TIMESTAMP.length())).replace('T', ' ')
                + (zoned ? "Z" : ""));
        }
        if (length == TIME.length() || length == TIME.length() + 1) {
            if (!matches(text, TIME)) {
                return Optional.empty();
            }
            if (length > TIME.length()) {
                return text.charAt(TIME.length()) == 'Z'
                    ? Optional.of(trimFraction(text.substring(0, TIME.length())) + "+00") : Optional.empty();
            }
            return Optional.of(edition == Edition.ISO_8601 ? text : trimFraction(text));
        }
        return Optional.empty();
    }

    private static boolean matches(String text, String shape) {
        for (int i = 0; i < shape.length(); i++) {
            char expected = shape.charAt(i);
            char c = text.charAt(i);
            if (expected == 'd' ? c < '0' || c > '9' : c != expected) {
                return false;
            }
        }
        return true;
    }

    /** Drops the trailing zeros of a six-digit fraction at the end of {@code text}, and the point if none remain. */
    private static String trimFraction(String text) {
        int end = text.length();
        while (text.charAt(end - 1) == '0') {
            end--;
        }
        if (text.charAt(end - 1) == '.') {
            end--;
        }
        return text.substring(0, end);
    }
}
