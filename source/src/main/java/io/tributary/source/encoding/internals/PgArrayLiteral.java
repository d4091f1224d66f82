package io.tributary.source.encoding.internals;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits the text form Postgres prints for a one-dimensional array ({@code {1,NULL,"a b","c\"d"}}, optionally
 * preceded by bounds such as {@code [0:2]=}, which are dropped as Debezium drops them) into its element texts,
 * {@code null} for SQL NULL. Elements are separated by commas (every supported element type uses the comma).
 * Stateless and thread-safe.
 */
public final class PgArrayLiteral {

    private PgArrayLiteral() {
    }

    /**
     * The element texts of a one-dimensional array literal, in order.
     *
     * @throws UnencodableValueException for a multi-dimensional array or malformed text
     */
    public static List<String> elements(String literal) {
        int i = 0;
        int length = literal.length();
        if (length > 0 && literal.charAt(0) == '[') {
            int eq = literal.indexOf('=');
            if (eq < 0) {
                throw malformed(literal);
            }
            if (literal.indexOf('[', 1) >= 0 && literal.indexOf('[', 1) < eq) {
                throw multiDimensional();
            }
            i = eq + 1;
        }
        if (i >= length || literal.charAt(i) != '{' || literal.charAt(length - 1) != '}') {
            throw malformed(literal);
        }
        i++;
        List<String> elements = new ArrayList<>();
        if (i == length - 1) {
            return elements;
        }
        StringBuilder element = new StringBuilder();
        while (true) {
            char c = literal.charAt(i);
            if (c == '{') {
                throw multiDimensional();
            }
            element.setLength(0);
            boolean quoted = c == '"';
            if (quoted) {
                i++;
                while (true) {
                    if (i >= length) {
                        throw malformed(literal);
                    }
                    c = literal.charAt(i);
                    if (c == '\\') {
                        i++;
                        if (i >= length) {
                            throw malformed(literal);
                        }
                        element.append(literal.charAt(i));
                    } else if (c == '"') {
                        i++;
                        break;
                    } else {
                        element.append(c);
                    }
                    i++;
                }
                elements.add(element.toString());
            } else {
                int start = i;
                while (i < length - 1 && literal.charAt(i) != ',') {
                    i++;
                }
                String text = literal.substring(start, i);
                elements.add("NULL".equalsIgnoreCase(text) ? null : text);
            }
            if (i == length - 1) {
                return elements;
            }
            if (literal.charAt(i) != ',') {
                throw malformed(literal);
            }
            i++;
            if (i >= length - 1) {
                throw malformed(literal);
            }
        }
    }

    private static UnencodableValueException multiDimensional() {
        return new UnencodableValueException("multi-dimensional arrays are not supported (only one dimension)");
    }

    private static UnencodableValueException malformed(String literal) {
        String shown = literal.length() > 80 ? literal.substring(0, 80) + "..." : literal;
        return new UnencodableValueException("malformed array text '" + shown + "'");
    }
}
