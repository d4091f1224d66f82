package io.tributary.bench.direct;

/**
 * A value as a field of {@code COPY ... FROM STDIN} text format: backslash, tab, newline and carriage return are
 * written as their backslash escapes, so any string (JSON with escaped quotes included) reads back unchanged.
 */
public final class CopyText {

    private CopyText() {
    }

    /** {@code value} escaped for one field of a COPY text line. */
    public static String escape(String value) {
        int i = 0;
        while (i < value.length() && !special(value.charAt(i))) {
            i++;
        }
        if (i == value.length()) {
            return value;
        }
        StringBuilder out = new StringBuilder(value.length() + 8).append(value, 0, i);
        for (; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\t' -> out.append("\\t");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    private static boolean special(char c) {
        return c == '\\' || c == '\t' || c == '\n' || c == '\r';
    }
}
