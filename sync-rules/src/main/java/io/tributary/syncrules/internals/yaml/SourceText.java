package io.tributary.syncrules.internals.yaml;

import java.util.Arrays;
import org.yaml.snakeyaml.error.Mark;

/**
 * The YAML document text, able to turn a character index into a 1-based line and column.
 * Line breaks are {@code \n}, {@code \r\n} and {@code \r}; columns count code points, as SnakeYAML's marks do.
 */
public final class SourceText {

    private final String text;
    private final int[] lineStarts;
    private final boolean hasSurrogates;

    public SourceText(String text) {
        this.text = text;
        int[] starts = new int[16];
        int lines = 1;
        boolean surrogates = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            surrogates |= Character.isSurrogate(c);
            boolean lineBreak = c == '\n' || c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n');
            if (lineBreak) {
                if (lines == starts.length) {
                    starts = Arrays.copyOf(starts, lines * 2);
                }
                starts[lines++] = i + 1;
            }
        }
        this.lineStarts = Arrays.copyOf(starts, lines);
        this.hasSurrogates = surrogates;
    }

    /** The document. */
    public String text() {
        return text;
    }

    /** The character index of a SnakeYAML mark (whose index counts code points). */
    public int charIndex(Mark mark) {
        int codePoints = Math.max(0, mark.getIndex());
        if (!hasSurrogates) {
            return Math.min(codePoints, text.length());
        }
        return text.offsetByCodePoints(0, Math.min(codePoints, text.codePointCount(0, text.length())));
    }

    /** The 1-based line of a character index (an index at the end of the text is on the last line). */
    public int line(int charIndex) {
        int found = Arrays.binarySearch(lineStarts, clamp(charIndex));
        return found >= 0 ? found + 1 : -found - 1;
    }

    /** The 1-based column, in code points, of a character index. */
    public int column(int charIndex) {
        int index = clamp(charIndex);
        int lineStart = lineStarts[line(index) - 1];
        return (hasSurrogates ? text.codePointCount(lineStart, index) : index - lineStart) + 1;
    }

    private int clamp(int charIndex) {
        return Math.max(0, Math.min(charIndex, text.length()));
    }
}
