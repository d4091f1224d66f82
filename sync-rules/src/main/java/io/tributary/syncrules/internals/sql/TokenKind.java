package io.tributary.syncrules.internals.sql;

/** The kinds of tokens of the sync rules SQL subset. */
public enum TokenKind {
    /** An unquoted identifier or keyword, folded to lower case. */
    IDENTIFIER,
    /** A double-quoted identifier, exact case, {@code ""} unescaped. */
    QUOTED_IDENTIFIER,
    /** A single-quoted string literal, {@code ''} unescaped. */
    STRING,
    /** An unsigned numeric literal. */
    NUMBER,
    COMMA,
    DOT,
    LEFT_PAREN,
    RIGHT_PAREN,
    STAR,
    EQUALS,
    NOT_EQUALS,
    LESS,
    LESS_OR_EQUAL,
    GREATER,
    GREATER_OR_EQUAL,
    /** {@code ->}. */
    ARROW,
    /** {@code ->>}. */
    DOUBLE_ARROW,
    MINUS,
    SEMICOLON,
    /** An operator outside the subset ({@code +}, {@code /}, {@code ||}, {@code ::}, ...), rejected by the parser. */
    OTHER_OPERATOR,
    END
}
