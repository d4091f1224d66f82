package io.tributary.syncrules.internals.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ParserTest {

    @Test
    void selectListWithStarQualifiedStarAndAliases() throws SqlException {
        Query query = Parser.parse("SELECT *, t.*, a, b AS c, d e, 'x' AS \"Kind\" FROM t");

        assertThat(query.items()).containsExactly(
            new SelectItem.Star(7, Optional.empty()),
            new SelectItem.Star(10, Optional.of("t")),
            new SelectItem.Value(15, new Expr.ColumnRef(15, Optional.empty(), "a"), Optional.empty()),
            new SelectItem.Value(18, new Expr.ColumnRef(18, Optional.empty(), "b"), Optional.of("c")),
            new SelectItem.Value(26, new Expr.ColumnRef(26, Optional.empty(), "d"), Optional.of("e")),
            new SelectItem.Value(31, new Expr.Literal(31, TextNode.valueOf("x")), Optional.of("Kind")));
    }

    @Test
    void fromWithSchemaWildcardAndAlias() throws SqlException {
        TableRef from = Parser.parse("SELECT * FROM \"Tenant_%\".Orders AS o").from().orElseThrow();

        assertThat(from.schema()).contains(new Identifier("Tenant_%", true, 14));
        assertThat(from.table()).isEqualTo(new Identifier("orders", false, 25));
        assertThat(from.alias().map(Identifier::value)).contains("o");
    }

    @Test
    void andBindsTighterThanOr() throws SqlException {
        Expr where = Parser.parse("SELECT * FROM t WHERE a = 1 OR b = 2 AND c = 3").where().orElseThrow();

        assertThat(where).isInstanceOf(Expr.Or.class);
        assertThat(((Expr.Or) where).operands().get(1)).isInstanceOf(Expr.And.class);
    }

    @Test
    void bucketAndTokenParametersAreRecognised() throws SqlException {
        Expr where = Parser.parse("SELECT * FROM t WHERE a = bucket.p AND token_parameters.q IN b").where()
            .orElseThrow();

        List<Expr> operands = ((Expr.And) where).operands();
        assertThat(((Expr.Comparison) operands.get(0)).right()).isEqualTo(new Expr.BucketParameterRef(26, "p"));
        assertThat(((Expr.In) operands.get(1)).left()).isEqualTo(new Expr.TokenParameterRef(39, "q"));
    }

    @Test
    void functionCallsWithJsonOperators() throws SqlException {
        Query query = Parser.parse("SELECT request.jwt() -> 'app' ->> 'org' AS org");

        Expr expression = ((SelectItem.Value) query.items().get(0)).expression();
        Expr.FunctionCall jwt = new Expr.FunctionCall(7, Optional.of("request"), "jwt", List.of());
        assertThat(expression).isEqualTo(new Expr.JsonExtract(7, new Expr.JsonExtract(7, jwt, "app", false), "org",
            true));
    }

    @Test
    void literalsOfEveryKind() throws SqlException {
        Query query = Parser.parse("SELECT 1 AS a, -2 AS b, 3000000000 AS c, 1.50 AS d, NULL AS e, TRUE AS f");

        assertThat(query.items()).extracting(i -> ((Expr.Literal) ((SelectItem.Value) i).expression()).value())
            .containsExactly(IntNode.valueOf(1), IntNode.valueOf(-2), LongNode.valueOf(3_000_000_000L),
                DecimalNode.valueOf(new BigDecimal("1.50")),
                NullNode.getInstance(),
                BooleanNode.TRUE);
    }

    @Test
    void isNotNullAndNotIn() throws SqlException {
        Expr where = Parser.parse("SELECT * FROM t WHERE a IS NOT NULL AND b NOT IN (1, 2)").where().orElseThrow();

        List<Expr> operands = ((Expr.And) where).operands();
        assertThat(operands.get(0)).isEqualTo(new Expr.IsNull(22, new Expr.ColumnRef(22, Optional.empty(), "a"),
            true));
        assertThat(((Expr.InList) operands.get(1)).negated()).isTrue();
    }

    @Test
    void trailingSemicolonIsAccepted() throws SqlException {
        assertThat(Parser.parse("SELECT * FROM t;").from()).isPresent();
    }

    @Test
    void queryMustStartWithSelect() {
        assertThatThrownBy(() -> Parser.parse("UPDATE t SET a = 1"))
            .hasMessage("expected SELECT but found 'update'");
    }

    @Test
    void unsupportedClausesAreNamed() {
        assertThatThrownBy(() -> Parser.parse("SELECT * FROM t ORDER BY id"))
            .hasMessage("unsupported SQL: ORDER is not supported");
        assertThatThrownBy(() -> Parser.parse("SELECT * FROM t, u"))
            .hasMessage("unsupported SQL: only one table in FROM is supported (no joins)");
        assertThatThrownBy(() -> Parser.parse("SELECT DISTINCT a FROM t"))
            .hasMessage("unsupported SQL: SELECT DISTINCT is not supported");
        assertThatThrownBy(() -> Parser.parse("SELECT a::text FROM t"))
            .hasMessage("unsupported SQL: operator '::' is not supported");
    }

    @Test
    void reservedWordIsNotAnAlias() {
        assertThatThrownBy(() -> Parser.parse("SELECT a AS from FROM t"))
            .isInstanceOfSatisfying(SqlException.class, e -> assertThat(e.offset()).isEqualTo(12))
            .hasMessage("expected an alias after AS but found 'from'");
    }
}
