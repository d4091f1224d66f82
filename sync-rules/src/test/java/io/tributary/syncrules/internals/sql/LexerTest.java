package io.tributary.syncrules.internals.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class LexerTest {

    private static List<TokenKind> kinds(String sql) throws SqlException {
        return Lexer.tokenize(sql).stream().map(Token::kind).toList();
    }

    @Test
    void unquotedIdentifiersFoldToLowerCase() throws SqlException {
        assertThat(Lexer.tokenize("SeLeCt Owner_ID").get(1)).isEqualTo(
            new Token(TokenKind.IDENTIFIER, "owner_id", 7, 15));
    }

    @Test
    void quotedIdentifiersKeepCaseAndUnescapeDoubledQuotes() throws SqlException {
        assertThat(Lexer.tokenize("\"My \"\"Col\"\"\"").get(0)).isEqualTo(
            new Token(TokenKind.QUOTED_IDENTIFIER, "My \"Col\"", 0, 12));
    }

    @Test
    void stringsUnescapeDoubledQuotes() throws SqlException {
        assertThat(Lexer.tokenize("'it''s'").get(0).text()).isEqualTo("it's");
    }

    @Test
    void percentIsPartOfAnIdentifier() throws SqlException {
        assertThat(Lexer.tokenize("tenant_%.%_orders").stream().map(Token::text).toList())
            .containsExactly("tenant_%", ".", "%_orders", "");
    }

    @Test
    void numbersWithFractionsAndExponents() throws SqlException {
        assertThat(Lexer.tokenize("1 2.50 .5 1e-3").stream().map(Token::text).toList())
            .containsExactly("1", "2.50", ".5", "1e-3", "");
    }

    @Test
    void operatorsAreRecognisedLongestFirst() throws SqlException {
        assertThat(kinds("= <> != < <= > >= -> ->> - ::")).containsExactly(TokenKind.EQUALS, TokenKind.NOT_EQUALS,
            TokenKind.NOT_EQUALS, TokenKind.LESS, TokenKind.LESS_OR_EQUAL, TokenKind.GREATER,
            TokenKind.GREATER_OR_EQUAL, TokenKind.ARROW, TokenKind.DOUBLE_ARROW, TokenKind.MINUS,
            TokenKind.OTHER_OPERATOR, TokenKind.END);
    }

    @Test
    void commentsAreSkipped() throws SqlException {
        assertThat(kinds("a -- comment\n/* block */ b")).containsExactly(TokenKind.IDENTIFIER, TokenKind.IDENTIFIER,
            TokenKind.END);
    }

    @Test
    void endTokenSitsJustAfterTheLastToken() throws SqlException {
        List<Token> tokens = Lexer.tokenize("SELECT x  \n\n");

        assertThat(tokens.get(tokens.size() - 1).offset()).isEqualTo(8);
    }

    @Test
    void unterminatedStringIsAnErrorAtItsStart() {
        assertThatThrownBy(() -> Lexer.tokenize("a = 'x"))
            .isInstanceOfSatisfying(SqlException.class, e -> assertThat(e.offset()).isEqualTo(4))
            .hasMessage("unterminated string literal");
    }

    @Test
    void unexpectedCharacterIsAnError() {
        assertThatThrownBy(() -> Lexer.tokenize("a ? b"))
            .isInstanceOfSatisfying(SqlException.class, e -> assertThat(e.offset()).isEqualTo(2))
            .hasMessage("unexpected character '?'");
    }

    @Test
    void numberRunningIntoLettersIsAnError() {
        assertThatThrownBy(() -> Lexer.tokenize("12abc")).hasMessage("invalid number '12a'");
    }
}
