package io.tributary.syncrules.internals.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import io.tributary.syncrules.internals.sql.ComparisonOperator;
import io.tributary.syncrules.internals.sql.Expr;
import io.tributary.syncrules.internals.sql.SqlException;
import io.tributary.topics.json.CanonicalJson;
import java.util.ArrayList;
import java.util.List;

/**
 * Rewrites a WHERE condition into negation normal form: {@code NOT} is pushed down to comparisons and
 * {@code IS NULL} (De Morgan, {@code NOT a < b} to {@code a >= b}), {@code IN (list)} becomes an OR of equalities
 * ({@code NOT IN} an AND of {@code <>}). Under three-valued logic these rewrites are exact, so evaluating the
 * result with "only TRUE selects" gives SQL's answer. Bucket parameters cannot be negated.
 */
final class Conditions {

    private Conditions() {
    }

    /** The condition without NOT and without IN lists. */
    static Expr normalize(Expr condition) throws SqlException {
        return normalize(condition, false);
    }

    /** Whether the expression mentions a bucket parameter anywhere. */
    static boolean mentionsBucket(Expr expr) {
        if (expr instanceof Expr.BucketParameterRef) {
            return true;
        }
        if (expr instanceof Expr.Comparison c) {
            return mentionsBucket(c.left()) || mentionsBucket(c.right());
        }
        if (expr instanceof Expr.In in) {
            return mentionsBucket(in.left()) || mentionsBucket(in.right());
        }
        if (expr instanceof Expr.InList in) {
            return mentionsBucket(in.left()) || in.values().stream().anyMatch(Conditions::mentionsBucket);
        }
        if (expr instanceof Expr.IsNull isNull) {
            return mentionsBucket(isNull.operand());
        }
        if (expr instanceof Expr.And and) {
            return and.operands().stream().anyMatch(Conditions::mentionsBucket);
        }
        if (expr instanceof Expr.Or or) {
            return or.operands().stream().anyMatch(Conditions::mentionsBucket);
        }
        if (expr instanceof Expr.Not not) {
            return mentionsBucket(not.operand());
        }
        if (expr instanceof Expr.JsonExtract extract) {
            return mentionsBucket(extract.target());
        }
        if (expr instanceof Expr.FunctionCall call) {
            return call.arguments().stream().anyMatch(Conditions::mentionsBucket);
        }
        return false;
    }

    private static Expr normalize(Expr expr, boolean negate) throws SqlException {
        if (expr instanceof Expr.Not not) {
            if (mentionsBucket(not.operand())) {
                throw new SqlException(not.offset(), "bucket parameters cannot be used under NOT");
            }
            return normalize(not.operand(), !negate);
        }
        if (expr instanceof Expr.And and) {
            List<Expr> operands = normalizeAll(and.operands(), negate);
            return negate ? new Expr.Or(and.offset(), operands) : new Expr.And(and.offset(), operands);
        }
        if (expr instanceof Expr.Or or) {
            List<Expr> operands = normalizeAll(or.operands(), negate);
            return negate ? new Expr.And(or.offset(), operands) : new Expr.Or(or.offset(), operands);
        }
        if (expr instanceof Expr.Comparison c) {
            return negate ? new Expr.Comparison(c.offset(), c.operator().negate(), c.left(), c.right()) : c;
        }
        if (expr instanceof Expr.IsNull isNull) {
            return negate ? new Expr.IsNull(isNull.offset(), isNull.operand(), !isNull.negated()) : isNull;
        }
        if (expr instanceof Expr.InList in) {
            return inList(in, in.negated() != negate);
        }
        if (expr instanceof Expr.In in) {
            if (in.negated() != negate) {
                throw new SqlException(in.offset(), mentionsBucket(in)
                    ? "bucket parameters cannot be used with NOT IN"
                    : RequestTerms.mentionsRequest(in)
                    ? "NOT IN with a request value is not supported (PowerSync does not support it either): a "
                        + "parameter query finds rows by values they have, not by values they lack"
                    : "unsupported SQL: NOT IN needs a list of values in parentheses");
            }
            return in;
        }
        if (expr instanceof Expr.Literal literal) {
            return booleanLiteral(literal, negate);
        }
        throw new SqlException(expr.offset(), "expected a condition (a comparison, IN or IS [NOT] NULL) but found "
            + Describe.expression(expr));
    }

    private static List<Expr> normalizeAll(List<Expr> operands, boolean negate) throws SqlException {
        List<Expr> result = new ArrayList<>(operands.size());
        for (Expr operand : operands) {
            result.add(normalize(operand, negate));
        }
        return result;
    }

    private static Expr inList(Expr.InList in, boolean negated) throws SqlException {
        if (mentionsBucket(in)) {
            throw new SqlException(in.offset(), "bucket parameters cannot be used in an IN (...) list; "
                + "use column IN bucket.<name>");
        }
        List<Expr> comparisons = new ArrayList<>();
        ComparisonOperator operator = negated ? ComparisonOperator.NOT_EQUAL : ComparisonOperator.EQUAL;
        for (Expr value : in.values()) {
            comparisons.add(new Expr.Comparison(value.offset(), operator, in.left(), value));
        }
        if (comparisons.size() == 1) {
            return comparisons.get(0);
        }
        return negated ? new Expr.And(in.offset(), comparisons) : new Expr.Or(in.offset(), comparisons);
    }

    private static Expr booleanLiteral(Expr.Literal literal, boolean negate) throws SqlException {
        JsonNode value = literal.value();
        if (value.isNull()) {
            return literal;
        }
        if (!value.isBoolean()) {
            throw new SqlException(literal.offset(), "expected a condition but found the literal "
                + CanonicalJson.toJson(value));
        }
        return negate ? new Expr.Literal(literal.offset(), BooleanNode.valueOf(!value.booleanValue())) : literal;
    }
}
