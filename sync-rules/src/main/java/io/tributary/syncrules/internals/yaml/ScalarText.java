package io.tributary.syncrules.internals.yaml;

import io.tributary.syncrules.Problem;
import org.yaml.snakeyaml.DumperOptions.ScalarStyle;
import org.yaml.snakeyaml.nodes.ScalarNode;

/**
 * The value of a YAML scalar (a SQL query) together with where each of its characters came from, so that an
 * offset within the query becomes a line and column of the document.
 *
 * <p>The value and the source differ by quoting, escapes, line folding and block indentation, which only drop
 * characters or turn line breaks and indentation into spaces or line feeds. The mapping walks both in step:
 * a non-blank value character is found by skipping source whitespace (and quote doubling or escapes), a blank one
 * consumes at most one source blank, and anything else before a character (a tag, an anchor) is skipped. This is
 * exact for plain, quoted and block scalars; a character written as an escape maps to the escape.
 */
public final class ScalarText {

    private final SourceText source;
    private final ScalarNode node;
    private final String value;

    public ScalarText(SourceText source, ScalarNode node) {
        this.source = source;
        this.node = node;
        this.value = node.getValue();
    }

    /** The scalar's value. */
    public String value() {
        return value;
    }

    /** A problem at {@code offset} in the value (the value's length means: just after its last character). */
    public Problem problemAt(int offset, String message) {
        int index = sourceIndex(offset);
        return new Problem(source.line(index), source.column(index), message);
    }

    /** The 1-based line in the document of {@code offset} in the value. */
    public int lineAt(int offset) {
        return source.line(sourceIndex(offset));
    }

    /** The 1-based column in the document of {@code offset} in the value. */
    public int columnAt(int offset) {
        return source.column(sourceIndex(offset));
    }

    /** The problem at the start of the scalar node. */
    public Problem problemAtStart(String message) {
        int index = source.charIndex(node.getStartMark());
        return new Problem(source.line(index), source.column(index), message);
    }

    private int sourceIndex(int offset) {
        String text = source.text();
        int end = Math.min(source.charIndex(node.getEndMark()), text.length());
        int pos = contentStart(text, end);
        ScalarStyle style = node.getScalarStyle();
        int target = Math.max(0, Math.min(offset, value.length()));
        int afterLast = pos;
        for (int i = 0; i <= target && i < value.length(); i++) {
            char c = value.charAt(i);
            if (isBlank(c)) {
                if (pos < end && isBlank(text.charAt(pos))) {
                    int start = pos;
                    pos += c == '\n' && text.startsWith("\r\n", pos) ? 2 : 1;
                    if (i == target) {
                        return start;
                    }
                    afterLast = pos;
                    continue;
                }
                if (style == ScalarStyle.DOUBLE_QUOTED && pos < end && text.charAt(pos) == '\\') {
                    int start = pos;
                    pos = afterEscape(text, pos, end);
                    if (i == target) {
                        return start;
                    }
                    afterLast = pos;
                    continue;
                }
                if (i == target) {
                    return pos;
                }
                continue;
            }
            pos = skipToNonBlank(text, pos, end, style);
            int start = pos;
            if (style == ScalarStyle.SINGLE_QUOTED && c == '\'' && text.startsWith("''", pos)) {
                pos += 2;
            } else if (style == ScalarStyle.DOUBLE_QUOTED && pos < end && text.charAt(pos) == '\\') {
                pos = afterEscape(text, pos, end);
            } else {
                int found = text.indexOf(c, pos);
                if (found < 0 || found >= end) {
                    return start;
                }
                start = found;
                pos = found + 1;
            }
            if (i == target) {
                return start;
            }
            afterLast = pos;
        }
        return afterLast;
    }

    private int contentStart(String text, int end) {
        int start = source.charIndex(node.getStartMark());
        switch (node.getScalarStyle()) {
            case LITERAL:
            case FOLDED:
                int pos = start;
                while (pos < end && text.charAt(pos) != '\n' && text.charAt(pos) != '\r') {
                    pos++;
                }
                return pos < end && text.startsWith("\r\n", pos) ? pos + 2 : pos + 1;
            case SINGLE_QUOTED:
            case DOUBLE_QUOTED:
                return start + 1;
            default:
                return start;
        }
    }

    private static int skipToNonBlank(String text, int pos, int end, ScalarStyle style) {
        int p = pos;
        while (p < end) {
            char c = text.charAt(p);
            if (isBlank(c)) {
                p++;
            } else if (style == ScalarStyle.DOUBLE_QUOTED && c == '\\' && p + 1 < end && isBlank(text.charAt(p + 1))) {
                p++;
            } else {
                return p;
            }
        }
        return p;
    }

    private static int afterEscape(String text, int pos, int end) {
        if (pos + 1 >= end) {
            return end;
        }
        char kind = text.charAt(pos + 1);
        int length;
        switch (kind) {
            case 'x':
                length = 4;
                break;
            case 'u':
                length = 6;
                break;
            case 'U':
                length = 10;
                break;
            default:
                length = 2;
        }
        return Math.min(pos + length, end);
    }

    private static boolean isBlank(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }
}
