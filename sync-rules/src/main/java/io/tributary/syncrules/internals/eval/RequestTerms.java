package io.tributary.syncrules.internals.eval;

import io.tributary.syncrules.internals.sql.ComparisonOperator;
import io.tributary.syncrules.internals.sql.Expr;
import io.tributary.syncrules.internals.sql.SqlException;

/**
 * The shapes request values may take in the WHERE of a table parameter query: only a lookup term,
 * {@code column = <request value>} (either way round), at the top level of an AND. Everything else that mentions
 * the request is refused here with what PowerSync's form would be, rather than evaluated differently.
 */
final class RequestTerms {

    private RequestTerms() {
    }

    /** Whether {@code expr} reads the request ({@code request.*()}, {@code token_parameters.*}) anywhere. */
    static boolean mentionsRequest(Expr expr) {
        if (expr instanceof Expr.TokenParameterRef) {
            return true;
        }
        if (expr instanceof Expr.FunctionCall call) {
            return call.namespace().filter("request"::equals).isPresent();
        }
        if (expr instanceof Expr.JsonExtract extract) {
            return mentionsRequest(extract.target());
        }
        if (expr instanceof Expr.Comparison c) {
            return mentionsRequest(c.left()) || mentionsRequest(c.right());
        }
        if (expr instanceof Expr.In in) {
            return mentionsRequest(in.left()) || mentionsRequest(in.right());
        }
        if (expr instanceof Expr.InList in) {
            return mentionsRequest(in.left()) || in.values().stream().anyMatch(RequestTerms::mentionsRequest);
        }
        if (expr instanceof Expr.IsNull isNull) {
            return mentionsRequest(isNull.operand());
        }
        if (expr instanceof Expr.And and) {
            return and.operands().stream().anyMatch(RequestTerms::mentionsRequest);
        }
        if (expr instanceof Expr.Or or) {
            return or.operands().stream().anyMatch(RequestTerms::mentionsRequest);
        }
        if (expr instanceof Expr.Not not) {
            return mentionsRequest(not.operand());
        }
        return false;
    }

    /** Whether {@code expr} reads a column of the row anywhere. */
    static boolean mentionsColumn(Expr expr) {
        if (expr instanceof Expr.ColumnRef) {
            return true;
        }
        if (expr instanceof Expr.FunctionCall call) {
            return call.arguments().stream().anyMatch(RequestTerms::mentionsColumn);
        }
        if (expr instanceof Expr.JsonExtract extract) {
            return mentionsColumn(extract.target());
        }
        if (expr instanceof Expr.Comparison c) {
            return mentionsColumn(c.left()) || mentionsColumn(c.right());
        }
        if (expr instanceof Expr.In in) {
            return mentionsColumn(in.left()) || mentionsColumn(in.right());
        }
        if (expr instanceof Expr.InList in) {
            return mentionsColumn(in.left()) || in.values().stream().anyMatch(RequestTerms::mentionsColumn);
        }
        if (expr instanceof Expr.IsNull isNull) {
            return mentionsColumn(isNull.operand());
        }
        if (expr instanceof Expr.And and) {
            return and.operands().stream().anyMatch(RequestTerms::mentionsColumn);
        }
        if (expr instanceof Expr.Or or) {
            return or.operands().stream().anyMatch(RequestTerms::mentionsColumn);
        }
        if (expr instanceof Expr.Not not) {
            return mentionsColumn(not.operand());
        }
        return false;
    }

    /** The text that identifies the request value of lookup term {@code term} among a query's inputs. */
    static String requestKey(Expr term) {
        if (term instanceof Expr.In in) {
            return Describe.expression(mentionsRequest(in.left()) ? in.left() : in.right());
        }
        Expr.Comparison c = (Expr.Comparison) term;
        return Describe.expression(mentionsRequest(c.left()) ? c.left() : c.right());
    }

    /**
     * {@code term} (a normalized top-level AND operand that mentions the request) as a lookup term:
     * {@code column = <request value>} (either way round), {@code column IN <request value>} (the request value an
     * array) or {@code <request value> IN column} (the column an array).
     *
     * @throws SqlException if it is any other shape
     */
    static LookupTerm lookupTerm(Expr term, RowOperands row, RequestOperands request) throws SqlException {
        if (term instanceof Expr.In in) {
            return inTerm(in, row, request);
        }
        if (term instanceof Expr.Comparison c) {
            boolean leftColumn = c.left() instanceof Expr.ColumnRef;
            boolean rightColumn = c.right() instanceof Expr.ColumnRef;
            Expr rowSide = mentionsRequest(c.left()) ? c.right() : c.left();
            if (rowSide instanceof Expr.FunctionCall call && !mentionsRequest(call)) {
                throw new SqlException(call.offset(), "unknown function " + call.displayName() + " (compare a "
                    + "column of the table itself with the request value: column = request.user_id())");
            }
            if (leftColumn == rightColumn || !mentionsRequest(leftColumn ? c.right() : c.left())) {
                throw new SqlException(c.offset(), "a request value in a parameter query with FROM must be "
                    + "compared with a column of the table (column = request.user_id()); conditions on request "
                    + "values alone belong in a parameter query without FROM");
            }
            if (c.operator() != ComparisonOperator.EQUAL) {
                throw new SqlException(c.offset(), "a column can only be compared with a request value with = "
                    + "(found " + c.operator().symbol() + ")");
            }
            Expr value = leftColumn ? c.right() : c.left();
            return new LookupTerm(LookupTerm.Kind.EQUAL, row.column((Expr.ColumnRef) (leftColumn ? c.left()
                : c.right())).name(), request.resolve(value), isJsonText(value));
        }
        throw new SqlException(term.offset(), "a request value in a parameter query with FROM can only be used "
            + "as column = <request value>, column IN <request array> or <request value> IN <array column> (found "
            + Describe.expression(term) + ")");
    }

    private static LookupTerm inTerm(Expr.In in, RowOperands row, RequestOperands request) throws SqlException {
        boolean requestLeft = mentionsRequest(in.left());
        boolean requestRight = mentionsRequest(in.right());
        if (requestLeft && requestRight) {
            throw new SqlException(in.offset(), "IN between two request values is a condition on the request alone; "
                + "it belongs in a parameter query without FROM");
        }
        Expr columnSide = requestLeft ? in.right() : in.left();
        if (!(columnSide instanceof Expr.ColumnRef column)) {
            throw new SqlException(columnSide.offset(), "IN with a request value needs a column of the table on "
                + "the other side (column IN request.parameters() ->> 'ids', or request.user_id() IN column), "
                + "found " + Describe.expression(columnSide));
        }
        Expr value = requestLeft ? in.left() : in.right();
        return new LookupTerm(requestLeft ? LookupTerm.Kind.REQUEST_IN_COLUMN : LookupTerm.Kind.COLUMN_IN_REQUEST,
            row.column(column).name(), request.resolve(value), isJsonText(value));
    }

    /** Whether the SQLite value of request value {@code value} is JSON text ({@code ->} as the last step). */
    private static boolean isJsonText(Expr value) {
        return value instanceof Expr.JsonExtract extract && !extract.asText();
    }
}
