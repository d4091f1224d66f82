package io.tributary.syncrules.internals.sql;

import java.util.Objects;

/**
 * One token of a query.
 *
 * @param kind   what it is
 * @param text   the value: folded for identifiers, unescaped for quoted identifiers and strings, raw otherwise
 * @param offset 0-based offset of the first character in the query
 * @param end    offset just after the last character
 */
public record Token(TokenKind kind, String text, int offset, int end) {

    public Token {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(text, "text");
        if (offset < 0 || end < offset) {
            throw new IllegalArgumentException("bad token range " + offset + ".." + end);
        }
    }

    /** True for the unquoted keyword {@code keyword} (lower case). */
    public boolean isKeyword(String keyword) {
        return kind == TokenKind.IDENTIFIER && text.equals(keyword);
    }

    /** True for a name: an identifier or a quoted identifier. */
    public boolean isName() {
        return kind == TokenKind.IDENTIFIER || kind == TokenKind.QUOTED_IDENTIFIER;
    }
}
