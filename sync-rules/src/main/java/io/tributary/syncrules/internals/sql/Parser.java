package io.tributary.syncrules.internals.sql;

import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * A recursive-descent parser for the sync rules SQL subset:
 *
 * <pre>
 * query     := SELECT item {, item} [FROM table] [WHERE or] [;]
 * item      := * | name . * | operand [[AS] name]
 * table     := name [. name] [[AS] name]
 * or        := and {OR and}
 * and       := not {AND not}
 * not       := NOT not | predicate
 * predicate := operand [cmp operand | [NOT] IN ( operand {, operand} ) | [NOT] IN operand | IS [NOT] NULL]
 * operand   := primary {(-&gt; | -&gt;&gt;) string}
 * primary   := ( or ) | literal | - number | name [. name] [( [operand {, operand}] )]
 * </pre>
 *
 * It knows nothing about what each kind of query may use; the compilers check that.
 */
public final class Parser {

    private static final Set<String> RESERVED = Set.of(
        "select", "from", "where", "and", "or", "not", "in", "is", "null", "true", "false", "as",
        "join", "inner", "left", "right", "full", "cross", "natural", "on", "using", "order", "group", "by",
        "having", "limit", "offset", "union", "intersect", "except", "distinct", "all", "case", "when", "then",
        "else", "end", "like", "ilike", "between", "exists", "returning", "window", "fetch", "for", "into",
        "lateral");

    private static final Set<String> UNSUPPORTED_CLAUSES = Set.of(
        "join", "inner", "left", "right", "full", "cross", "natural", "order", "group", "having", "limit",
        "offset", "union", "intersect", "except", "window", "fetch", "for", "into", "returning");

    private final List<Token> tokens;
    private int index;

    private Parser(List<Token> tokens) {
        this.tokens = tokens;
    }

    /** Parses one query. */
    public static Query parse(String sql) throws SqlException {
        Parser parser = new Parser(Lexer.tokenize(sql));
        return parser.query();
    }

    private Query query() throws SqlException {
        Token select = peek();
        if (!select.isKeyword("select")) {
            throw new SqlException(select.offset(), "expected SELECT but found " + describe(select));
        }
        index++;
        if (peek().isKeyword("distinct")) {
            throw unsupported(peek(), "SELECT DISTINCT is not supported");
        }
        List<SelectItem> items = new ArrayList<>();
        do {
            items.add(selectItem());
        } while (accept(TokenKind.COMMA));
        Optional<TableRef> from = Optional.empty();
        if (peek().isKeyword("from")) {
            from = Optional.of(table(next()));
        }
        Optional<Expr> where = Optional.empty();
        int whereOffset = peek().offset();
        if (peek().isKeyword("where")) {
            next();
            where = Optional.of(or());
        }
        accept(TokenKind.SEMICOLON);
        Token end = peek();
        if (end.kind() != TokenKind.END) {
            throw unexpectedAfterQuery(end, from.isPresent(), where.isPresent());
        }
        return new Query(select.offset(), items, from, where, whereOffset);
    }

    private SelectItem selectItem() throws SqlException {
        Token first = peek();
        if (first.kind() == TokenKind.STAR) {
            next();
            return new SelectItem.Star(first.offset(), Optional.empty());
        }
        if (first.isName() && peek(1).kind() == TokenKind.DOT && peek(2).kind() == TokenKind.STAR) {
            index += 3;
            return new SelectItem.Star(first.offset(), Optional.of(first.text()));
        }
        Expr expression = operand();
        rejectOperator();
        Optional<String> alias = Optional.empty();
        if (peek().isKeyword("as")) {
            next();
            alias = Optional.of(name("an alias after AS").value());
        } else if (isBareAlias(peek())) {
            alias = Optional.of(name("an alias").value());
        }
        return new SelectItem.Value(first.offset(), expression, alias);
    }

    private TableRef table(Token fromKeyword) throws SqlException {
        Identifier first = name("a table name after FROM");
        Optional<Identifier> schema = Optional.empty();
        Identifier table = first;
        if (accept(TokenKind.DOT)) {
            schema = Optional.of(first);
            table = name("a table name after '" + first.value() + ".'");
            if (peek().kind() == TokenKind.DOT) {
                throw unsupported(peek(), "table names have at most two parts (schema.table)");
            }
        }
        if (peek().kind() == TokenKind.LEFT_PAREN) {
            throw unsupported(peek(), "table functions in FROM are not supported");
        }
        Optional<Identifier> alias = Optional.empty();
        if (peek().isKeyword("as")) {
            next();
            alias = Optional.of(name("an alias after AS"));
        } else if (isBareAlias(peek())) {
            alias = Optional.of(name("an alias"));
        }
        if (peek().kind() == TokenKind.COMMA) {
            throw unsupported(peek(), "only one table in FROM is supported (no joins)");
        }
        return new TableRef(fromKeyword.offset(), schema, table, alias);
    }

    private Expr or() throws SqlException {
        int offset = peek().offset();
        List<Expr> operands = new ArrayList<>();
        operands.add(and());
        while (peek().isKeyword("or")) {
            next();
            operands.add(and());
        }
        return operands.size() == 1 ? operands.get(0) : new Expr.Or(offset, operands);
    }

    private Expr and() throws SqlException {
        int offset = peek().offset();
        List<Expr> operands = new ArrayList<>();
        operands.add(not());
        while (peek().isKeyword("and")) {
            next();
            operands.add(not());
        }
        return operands.size() == 1 ? operands.get(0) : new Expr.And(offset, operands);
    }

    private Expr not() throws SqlException {
        if (peek().isKeyword("not")) {
            Token not = next();
            return new Expr.Not(not.offset(), not());
        }
        return predicate();
    }

    private Expr predicate() throws SqlException {
        Expr left = operand();
        Token token = peek();
        Optional<ComparisonOperator> operator = comparison(token.kind());
        if (operator.isPresent()) {
            next();
            Expr right = operand();
            rejectOperator();
            return new Expr.Comparison(left.offset(), operator.get(), left, right);
        }
        boolean negated = false;
        if (token.isKeyword("not") && peek(1).isKeyword("in")) {
            next();
            negated = true;
        }
        if (peek().isKeyword("in")) {
            next();
            if (peek().kind() == TokenKind.LEFT_PAREN) {
                next();
                List<Expr> values = new ArrayList<>();
                do {
                    values.add(operand());
                } while (accept(TokenKind.COMMA));
                expect(TokenKind.RIGHT_PAREN, "')' to close the IN list");
                return new Expr.InList(left.offset(), left, values, negated);
            }
            Expr right = operand();
            rejectOperator();
            return new Expr.In(left.offset(), left, right, negated);
        }
        if (token.isKeyword("is")) {
            next();
            boolean isNot = false;
            if (peek().isKeyword("not")) {
                next();
                isNot = true;
            }
            Token nullToken = peek();
            if (!nullToken.isKeyword("null")) {
                throw unsupported(nullToken, "only IS [NOT] NULL is supported, found IS " + describe(nullToken));
            }
            next();
            return new Expr.IsNull(left.offset(), left, isNot);
        }
        if (token.isKeyword("like") || token.isKeyword("ilike") || token.isKeyword("between")) {
            throw unsupported(token, token.text().toUpperCase(Locale.ROOT) + " is not supported");
        }
        rejectOperator();
        return left;
    }

    private Expr operand() throws SqlException {
        Expr expression = primary();
        while (peek().kind() == TokenKind.ARROW || peek().kind() == TokenKind.DOUBLE_ARROW) {
            Token arrow = next();
            Token key = peek();
            if (key.kind() != TokenKind.STRING) {
                throw new SqlException(key.offset(), "expected a string key after " + arrow.text()
                    + " but found " + describe(key));
            }
            next();
            expression = new Expr.JsonExtract(expression.offset(), expression, key.text(),
                arrow.kind() == TokenKind.DOUBLE_ARROW);
        }
        return expression;
    }

    private Expr primary() throws SqlException {
        Token token = peek();
        switch (token.kind()) {
            case LEFT_PAREN:
                next();
                Expr inner = or();
                expect(TokenKind.RIGHT_PAREN, "')'");
                return inner;
            case STRING:
                next();
                return new Expr.Literal(token.offset(), TextNode.valueOf(token.text()));
            case NUMBER:
                next();
                return new Expr.Literal(token.offset(), Numbers.parse(token.text(), false));
            case MINUS:
                next();
                Token number = peek();
                if (number.kind() != TokenKind.NUMBER) {
                    throw unsupported(token, "unary minus is only supported before a number");
                }
                next();
                return new Expr.Literal(token.offset(), Numbers.parse(number.text(), true));
            case IDENTIFIER:
            case QUOTED_IDENTIFIER:
                return nameExpression();
            default:
                throw new SqlException(token.offset(), "expected an expression but found " + describe(token));
        }
    }

    private Expr nameExpression() throws SqlException {
        Token first = peek();
        if (first.kind() == TokenKind.IDENTIFIER) {
            switch (first.text()) {
                case "null":
                    next();
                    return new Expr.Literal(first.offset(), NullNode.getInstance());
                case "true":
                    next();
                    return new Expr.Literal(first.offset(), BooleanNode.TRUE);
                case "false":
                    next();
                    return new Expr.Literal(first.offset(), BooleanNode.FALSE);
                case "case":
                case "exists":
                case "select":
                    throw unsupported(first, first.text().toUpperCase(Locale.ROOT)
                        + " expressions are not supported");
                default:
                    if (RESERVED.contains(first.text())) {
                        throw new SqlException(first.offset(), "expected an expression but found " + describe(first));
                    }
            }
        }
        next();
        Optional<Token> second = Optional.empty();
        if (peek().kind() == TokenKind.DOT) {
            next();
            Token name = peek();
            if (!name.isName()) {
                throw new SqlException(name.offset(), "expected a name after '" + first.text() + ".' but found "
                    + describe(name));
            }
            next();
            second = Optional.of(name);
            if (peek().kind() == TokenKind.DOT) {
                throw unsupported(peek(), "names have at most two parts (qualifier.name)");
            }
        }
        if (peek().kind() == TokenKind.LEFT_PAREN) {
            return functionCall(first, second);
        }
        if (second.isEmpty()) {
            return new Expr.ColumnRef(first.offset(), Optional.empty(), first.text());
        }
        String qualifier = first.text();
        String name = second.get().text();
        if (first.kind() == TokenKind.IDENTIFIER && qualifier.equals("bucket")) {
            return new Expr.BucketParameterRef(first.offset(), name);
        }
        if (first.kind() == TokenKind.IDENTIFIER && qualifier.equals("token_parameters")) {
            return new Expr.TokenParameterRef(first.offset(), name);
        }
        return new Expr.ColumnRef(first.offset(), Optional.of(qualifier), name);
    }

    private Expr functionCall(Token first, Optional<Token> second) throws SqlException {
        next();
        List<Expr> arguments = new ArrayList<>();
        if (peek().kind() != TokenKind.RIGHT_PAREN) {
            do {
                arguments.add(operand());
            } while (accept(TokenKind.COMMA));
        }
        expect(TokenKind.RIGHT_PAREN, "')' to close the argument list");
        Optional<String> namespace = second.map(s -> first.text());
        String name = second.map(Token::text).orElse(first.text());
        return new Expr.FunctionCall(first.offset(), namespace, name, arguments);
    }

    private Identifier name(String what) throws SqlException {
        Token token = peek();
        if (!token.isName() || token.kind() == TokenKind.IDENTIFIER && RESERVED.contains(token.text())) {
            throw new SqlException(token.offset(), "expected " + what + " but found " + describe(token));
        }
        next();
        return new Identifier(token.text(), token.kind() == TokenKind.QUOTED_IDENTIFIER, token.offset());
    }

    private void rejectOperator() throws SqlException {
        Token token = peek();
        TokenKind kind = token.kind();
        if (kind == TokenKind.OTHER_OPERATOR || kind == TokenKind.MINUS || kind == TokenKind.STAR) {
            throw unsupported(token, "operator '" + token.text() + "' is not supported");
        }
    }

    private SqlException unexpectedAfterQuery(Token token, boolean hasFrom, boolean hasWhere) {
        if (token.kind() == TokenKind.IDENTIFIER && UNSUPPORTED_CLAUSES.contains(token.text())) {
            return unsupported(token, token.text().toUpperCase(Locale.ROOT) + " is not supported");
        }
        String expected = hasWhere ? "AND, OR or the end of the query"
            : hasFrom ? "WHERE or the end of the query" : "FROM, WHERE or the end of the query";
        return new SqlException(token.offset(), "expected " + expected + " but found " + describe(token));
    }

    private static SqlException unsupported(Token token, String message) {
        return new SqlException(token.offset(), "unsupported SQL: " + message);
    }

    private static boolean isBareAlias(Token token) {
        return token.kind() == TokenKind.QUOTED_IDENTIFIER
            || token.kind() == TokenKind.IDENTIFIER && !RESERVED.contains(token.text());
    }

    private static Optional<ComparisonOperator> comparison(TokenKind kind) {
        switch (kind) {
            case EQUALS:
                return Optional.of(ComparisonOperator.EQUAL);
            case NOT_EQUALS:
                return Optional.of(ComparisonOperator.NOT_EQUAL);
            case LESS:
                return Optional.of(ComparisonOperator.LESS);
            case LESS_OR_EQUAL:
                return Optional.of(ComparisonOperator.LESS_OR_EQUAL);
            case GREATER:
                return Optional.of(ComparisonOperator.GREATER);
            case GREATER_OR_EQUAL:
                return Optional.of(ComparisonOperator.GREATER_OR_EQUAL);
            default:
                return Optional.empty();
        }
    }

    private static String describe(Token token) {
        switch (token.kind()) {
            case END:
                return "the end of the query";
            case STRING:
                return "'" + token.text() + "'";
            case QUOTED_IDENTIFIER:
                return "\"" + token.text() + "\"";
            default:
                return "'" + token.text() + "'";
        }
    }

    private Token peek() {
        return peek(0);
    }

    private Token peek(int ahead) {
        return tokens.get(Math.min(index + ahead, tokens.size() - 1));
    }

    private Token next() {
        Token token = peek();
        if (token.kind() != TokenKind.END) {
            index++;
        }
        return token;
    }

    private boolean accept(TokenKind kind) {
        if (peek().kind() == kind) {
            index++;
            return true;
        }
        return false;
    }

    private void expect(TokenKind kind, String what) throws SqlException {
        Token token = peek();
        if (token.kind() != kind) {
            throw new SqlException(token.offset(), "expected " + what + " but found " + describe(token));
        }
        index++;
    }
}
