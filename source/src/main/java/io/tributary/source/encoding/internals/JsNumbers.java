package io.tributary.source.encoding.internals;

import com.fasterxml.jackson.core.io.NumberOutput;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Formats finite floating point values exactly like JavaScript's {@code Number.prototype.toString()}: the
 * shortest decimal that reads back to the same value (closest to the exact value among the shortest, ties to
 * even), plain notation for decimal exponents in {@code [-7, 21)}, otherwise {@code d.ddde+x}; {@code -0} is
 * {@code 0}. A {@code float} is formatted from the shortest decimal of the float itself ({@code 0.1f} is
 * {@code 0.1}), not of its widened double.
 *
 * <p>The shortest digits come from Jackson's Schubfach implementation (the JDK 19 {@code Double.toString}
 * algorithm), which differs from ECMAScript only when one digit would do: it then returns the closest two-digit
 * decimal ({@code 4.9E-324}), which is corrected here to the closest one-digit decimal that still reads back
 * ({@code 5e-324}). For normal (not subnormal) values both rules give the same digits, so only subnormals pay for
 * the check. Stateless and thread-safe.
 */
public final class JsNumbers {

    private JsNumbers() {
    }

    /** JavaScript's rendering of a finite double. */
    public static String format(double value) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("Not a finite number: " + value);
        }
        if (value == 0) {
            return "0";
        }
        Decimal d = Decimal.parse(NumberOutput.toString(value, true));
        if (d.digits.length() == 2 && Math.abs(value) < Double.MIN_NORMAL) {
            d = oneDigitIfExact(d, new BigDecimal(value), c -> Double.parseDouble(c) == value);
        }
        return d.toJavaScript();
    }

    /** JavaScript's rendering of the shortest decimal of a finite float. */
    public static String format(float value) {
        if (!Float.isFinite(value)) {
            throw new IllegalArgumentException("Not a finite number: " + value);
        }
        if (value == 0) {
            return "0";
        }
        Decimal d = Decimal.parse(NumberOutput.toString(value, true));
        if (d.digits.length() == 2 && Math.abs(value) < Float.MIN_NORMAL) {
            d = oneDigitIfExact(d, new BigDecimal(value), c -> Float.parseFloat(c) == value);
        }
        return d.toJavaScript();
    }

    private interface RoundTrip {
        boolean readsBack(String candidate);
    }

    /** The closest one-digit decimal that reads back to the value, if any; else the two-digit one. */
    private static Decimal oneDigitIfExact(Decimal twoDigits, BigDecimal exact, RoundTrip roundTrip) {
        BigDecimal magnitude = exact.abs();
        BigDecimal down = magnitude.round(new MathContext(1, RoundingMode.FLOOR));
        BigDecimal up = magnitude.round(new MathContext(1, RoundingMode.CEILING));
        BigDecimal best = null;
        for (BigDecimal candidate : new BigDecimal[] {down, up}) {
            if (candidate.signum() == 0 || !roundTrip.readsBack((exact.signum() < 0 ? "-" : "") + candidate)) {
                continue;
            }
            if (best == null) {
                best = candidate;
                continue;
            }
            int cmp = candidate.subtract(magnitude).abs().compareTo(best.subtract(magnitude).abs());
            if (cmp < 0 || cmp == 0 && !candidate.unscaledValue().testBit(0)) {
                best = candidate;
            }
        }
        if (best == null) {
            return twoDigits;
        }
        BigDecimal stripped = best.stripTrailingZeros();
        String digits = stripped.unscaledValue().toString();
        return new Decimal(twoDigits.negative, digits, digits.length() - stripped.scale());
    }

    /** A decimal {@code 0.digits x 10^point}, digits without leading or trailing zeros. */
    private record Decimal(boolean negative, String digits, int point) {

        static Decimal parse(String java) {
            boolean negative = java.charAt(0) == '-';
            int start = negative ? 1 : 0;
            int e = java.indexOf('E');
            int exponent = e < 0 ? 0 : Integer.parseInt(java, e + 1, java.length(), 10);
            int end = e < 0 ? java.length() : e;
            StringBuilder digits = new StringBuilder(end - start);
            int point = 0;
            boolean seenDot = false;
            for (int i = start; i < end; i++) {
                char c = java.charAt(i);
                if (c == '.') {
                    seenDot = true;
                } else {
                    digits.append(c);
                    if (!seenDot) {
                        point++;
                    }
                }
            }
            int lead = 0;
            while (lead < digits.length() - 1 && digits.charAt(lead) == '0') {
                lead++;
            }
            int trail = digits.length();
            while (trail > lead + 1 && digits.charAt(trail - 1) == '0') {
                trail--;
            }
            return new Decimal(negative, digits.substring(lead, trail), point - lead + exponent);
        }

        String toJavaScript() {
            int k = digits.length();
            int n = point;
            StringBuilder out = new StringBuilder(k + 8);
            if (negative) {
                out.append('-');
            }
            if (k <= n && n <= 21) {
                out.append(digits);
                for (int i = k; i < n; i++) {
                    out.append('0');
                }
            } else if (0 < n && n <= 21) {
                out.append(digits, 0, n).append('.').append(digits, n, k);
            } else if (-6 < n && n <= 0) {
                out.append("0.");
                for (int i = n; i < 0; i++) {
                    out.append('0');
                }
                out.append(digits);
            } else {
                int e = n - 1;
                out.append(digits.charAt(0));
                if (k > 1) {
                    out.append('.').append(digits, 1, k);
                }
                out.append('e').append(e < 0 ? '-' : '+').append(Math.abs(e));
            }
            return out.toString();
        }
    }
}
