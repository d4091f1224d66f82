package io.tributary.syncrules.internals.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Splits a query into tokens. Unquoted identifiers fold to lower case as in Postgres and may contain {@code %}
 * (a table name wildcard); {@code --} and {@code /* *}{@code /} comments are skipped.
 */
public final class Lexer {

    private final String sql;
    private final List<Token> tokens = new ArrayList<>();
    private int pos;

    private Lexer(String sql) {
        this.sql = sql;
    }

    /** The tokens of {@code sql}, ending with one {@link TokenKind#END} token. */
    public static List<Token> tokenize(String sql) throws SqlException {
        Lexer lexer = new Lexer(sql);
        lexer.run();
        return List.copyOf(lexer.tokens);
    }

    private void run() throws SqlException {
        while (true) {
            skipSpaceAndComments();
            if (pos >= sql.length()) {
                int end = endOfContent();
                tokens.add(new Token(TokenKind.END, "", end, end));
                return;
            }
            char c = sql.charAt(pos);
            if (isIdentifierStart(c)) {
                identifier();
            } else if (c == '"') {
                quoted('"', TokenKind.QUOTED_IDENTIFIER, "quoted identifier");
            } else if (c == '\'') {
                quoted('\'', TokenKind.STRING, "string literal");
            } else if (isDigit(c) || c == '.' && pos + 1 < sql.length() && isDigit(sql.charAt(pos + 1))) {
                number();
            } else {
                symbol(c);
            }
        }
    }

    private void skipSpaceAndComments() throws SqlException {
        while (pos < sql.length()) {
            char c = sql.charAt(pos);
            if (Character.isWhitespace(c)) {
                pos++;
            } else if (sql.startsWith("--", pos)) {
                while (pos < sql.length() && sql.charAt(pos) != '\n') {
                    pos++;
                }
            } else if (sql.startsWith("/*", pos)) {
                int close = sql.indexOf("*/", pos + 2);
                if (close < 0) {
                    throw new SqlException(pos, "unterminated comment");
                }
                pos = close + 2;
            } else {
                return;
            }
        }
    }

    /** Just after the last token: where "the end of the query" is shown. */
    private int endOfContent() {
        return tokens.isEmpty() ? 0 : tokens.get(tokens.size() - 1).end();
    }

    private void identifier() {
        int start = pos;
        while (pos < sql.length() && isIdentifierPart(sql.charAt(pos))) {
            pos++;
        }
        String text = sql.substring(start, pos).toLowerCase(Locale.ROOT);
        tokens.add(new Token(TokenKind.IDENTIFIER, text, start, pos));
    }

    private void quoted(char quote, TokenKind kind, String what) throws SqlException {
        int start = pos;
        StringBuilder value = new StringBuilder();
        pos++;
        while (true) {
            if (pos >= sql.length()) {
                throw new SqlException(start, "unterminated " + what);
            }
            char c = sql.charAt(pos++);
            if (c == quote) {
                if (pos < sql.length() && sql.charAt(pos) == quote) {
                    value.append(quote);
                    pos++;
                } else {
                    break;
                }
            } else {
                value.append(c);
            }
        }
        if (kind == TokenKind.QUOTED_IDENTIFIER && value.length() == 0) {
            throw new SqlException(start, "zero-length quoted identifier");
        }
        tokens.add(new Token(kind, value.toString(), start, pos));
    }

    private void number() throws SqlException {
        int start = pos;
        digits();
        if (pos < sql.length() && sql.charAt(pos) == '.') {
            pos++;
            digits();
        }
        if (pos < sql.length() && (sql.charAt(pos) == 'e' || sql.charAt(pos) == 'E')) {
            int exponent = pos;
            pos++;
            if (pos < sql.length() && (sql.charAt(pos) == '+' || sql.charAt(pos) == '-')) {
                pos++;
            }
            if (pos >= sql.length() || !isDigit(sql.charAt(pos))) {
                throw new SqlException(exponent, "invalid number '" + sql.substring(start, pos) + "'");
            }
            digits();
        }
        if (pos < sql.length() && isIdentifierPart(sql.charAt(pos))) {
            throw new SqlException(start, "invalid number '" + sql.substring(start, pos + 1) + "'");
        }
        tokens.add(new Token(TokenKind.NUMBER, sql.substring(start, pos), start, pos));
    }

    private void digits() {
        while (pos < sql.length() && isDigit(sql.charAt(pos))) {
            pos++;
        }
    }

    private void symbol(char c) throws SqlException {
        int start = pos;
        TokenKind kind;
        int length = 1;
        switch (c) {
            case ',':
                kind = TokenKind.COMMA;
                break;
            case '.':
                kind = TokenKind.DOT;
                break;
            case '(':
                kind = TokenKind.LEFT_PAREN;
                break;
            case ')':
                kind = TokenKind.RIGHT_PAREN;
                break;
            case '*':
                kind = TokenKind.STAR;
                break;
            case ';':
                kind = TokenKind.SEMICOLON;
                break;
            case '=':
                kind = TokenKind.EQUALS;
                break;
            case '<':
                if (next('>')) {
                    kind = TokenKind.NOT_EQUALS;
                    length = 2;
                } else if (next('=')) {
                    kind = TokenKind.LESS_OR_EQUAL;
                    length = 2;
                } else {
                    kind = TokenKind.LESS;
                }
                break;
            case '>':
                kind = next('=') ? TokenKind.GREATER_OR_EQUAL : TokenKind.GREATER;
                length = kind == TokenKind.GREATER ? 1 : 2;
                break;
            case '!':
                if (!next('=')) {
                    throw new SqlException(start, "unexpected character '!'");
                }
                kind = TokenKind.NOT_EQUALS;
                length = 2;
                break;
            case '-':
                if (sql.startsWith("->>", pos)) {
                    kind = TokenKind.DOUBLE_ARROW;
                    length = 3;
                } else if (next('>')) {
                    kind = TokenKind.ARROW;
                    length = 2;
                } else {
                    kind = TokenKind.MINUS;
                }
                break;
            case '+':
            case '/':
            case '^':
            case '~':
            case '&':
                kind = TokenKind.OTHER_OPERATOR;
                break;
            case '|':
            case ':':
                kind = TokenKind.OTHER_OPERATOR;
                length = next(c) ? 2 : 1;
                break;
            default:
                throw new SqlException(start, "unexpected character '" + c + "'");
        }
        pos += length;
        tokens.add(new Token(kind, sql.substring(start, pos), start, pos));
    }

    private boolean next(char expected) {
        return pos + 1 < sql.length() && sql.charAt(pos + 1) == expected;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isIdentifierStart(char c) {
        return Character.isLetter(c) || Character.isSurrogate(c) || c == '_' || c == '%';
    }

    private static boolean isIdentifierPart(char c) {
        return isIdentifierStart(c) || isDigit(c) || c == '$';
    }
}
