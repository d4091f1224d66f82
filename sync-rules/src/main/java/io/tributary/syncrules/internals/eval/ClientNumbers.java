package io.tributary.syncrules.internals.eval;

import java.math.BigDecimal;

/**
 * The text PowerSync writes for a REAL value (a {@code float4} or {@code float8}): JavaScript's
 * {@code Number.prototype.toString} of the value, with {@code .0} appended when that text is an integer, so that the
 * client's SQLite keeps the value a REAL ({@code 3.0}, {@code 2.5}, {@code 1e+21}, {@code 1.5e-7},
 * {@code 100000000000000000000.0}). Stateless and thread-safe.
 */
final class ClientNumbers {

    private ClientNumbers() {
    }

    /**
     * Appends the REAL text of {@code value}, given as the shortest decimal digits that identify the double (what
     * the canonical row holds for a float).
     */
    static void appendReal(BigDecimal value, StringBuilder out) {
        int start = out.length();
        appendJs(value, out);
        for (int i = start; i < out.length(); i++) {
            char c = out.charAt(i);
            if (c == '.' || c == 'e') {
                return;
            }
        }
        out.append(".0");
    }

    /** Appends JavaScript's {@code Number.prototype.toString} of the double whose shortest digits are {@code value}. */
    static void appendJs(BigDecimal value, StringBuilder out) {
        if (value.signum() == 0) {
            out.append('0');
            return;
        }
        BigDecimal stripped = value.stripTrailingZeros();
        String digits = stripped.unscaledValue().abs().toString();
        int k = digits.length();
        int n = k - stripped.scale();
        if (stripped.signum() < 0) {
            out.append('-');
        }
        if (k <= n && n <= 21) {
            out.append(digits).append("0".repeat(n - k));
        } else if (0 < n && n <= 21) {
            out.append(digits, 0, n).append('.').append(digits, n, k);
        } else if (-6 < n && n <= 0) {
            out.append("0.").append("0".repeat(-n)).append(digits);
        } else {
            out.append(digits.charAt(0));
            if (k > 1) {
                out.append('.').append(digits, 1, k);
            }
            out.append('e').append(n - 1 >= 0 ? "+" : "-").append(Math.abs(n - 1));
        }
    }

    /** Appends the REAL text of a double, as {@link #appendReal(BigDecimal, StringBuilder)}. */
    static void appendReal(double value, StringBuilder out) {
        appendReal(new BigDecimal(Double.toString(value)), out);
    }
}
