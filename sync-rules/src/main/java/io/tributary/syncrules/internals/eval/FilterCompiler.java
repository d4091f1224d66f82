package io.tributary.syncrules.internals.eval;

import io.tributary.syncrules.internals.sql.Expr;
import io.tributary.syncrules.internals.sql.SqlException;
import java.util.ArrayList;
import java.util.List;

/**
 * Compiles a normalized condition without bucket parameters (see {@link Conditions}) into a {@link Filter}.
 * What an operand may be is up to the {@link OperandResolver}: row columns for data queries, request values for
 * parameter queries.
 *
 * @param <T> the input the filter tests
 */
final class FilterCompiler<T> {

    /**
     * Turns an operand expression into a {@link ValueSource}, or rejects it.
     *
     * @param <T> the input
     */
    @FunctionalInterface
    interface OperandResolver<T> {
        ValueSource<T> resolve(Expr operand) throws SqlException;
    }

    private final OperandResolver<T> resolver;

    FilterCompiler(OperandResolver<T> resolver) {
        this.resolver = resolver;
    }

    Filter<T> compile(Expr condition) throws SqlException {
        if (condition instanceof Expr.And and) {
            return Filter.and(compileAll(and.operands()));
        }
        if (condition instanceof Expr.Or or) {
            return Filter.or(compileAll(or.operands()));
        }
        if (condition instanceof Expr.Comparison c) {
            ValueSource<T> left = resolver.resolve(c.left());
            ValueSource<T> right = resolver.resolve(c.right());
            if (left instanceof ValueSource.Constant<T> && !(right instanceof ValueSource.Constant<T>)) {
                return Filter.comparison(right, c.operator().mirror(), left);
            }
            return Filter.comparison(left, c.operator(), right);
        }
        if (condition instanceof Expr.IsNull isNull) {
            return Filter.isNull(resolver.resolve(isNull.operand()), isNull.negated());
        }
        if (condition instanceof Expr.Literal literal) {
            return Filter.constant(literal.value().isBoolean() && literal.value().booleanValue());
        }
        if (condition instanceof Expr.In in) {
            throw new SqlException(in.offset(), "unsupported SQL: IN needs a list of values in parentheses "
                + "or a bucket parameter (column IN bucket.<name>)");
        }
        throw new SqlException(condition.offset(), "expected a condition but found "
            + Describe.expression(condition));
    }

    private List<Filter<T>> compileAll(List<Expr> conditions) throws SqlException {
        List<Filter<T>> filters = new ArrayList<>(conditions.size());
        for (Expr condition : conditions) {
            filters.add(compile(condition));
        }
        return filters;
    }
}
