package io.tributary.syncrules.internals.eval;

import io.tributary.syncrules.internals.sql.Expr;
import io.tributary.topics.json.CanonicalJson;

/** Short descriptions of expressions for error messages. */
final class Describe {

    private Describe() {
    }

    static String expression(Expr expr) {
        if (expr instanceof Expr.ColumnRef column) {
            return "column " + column.qualifier().map(q -> q + ".").orElse("") + column.name();
        }
        if (expr instanceof Expr.BucketParameterRef parameter) {
            return "bucket." + parameter.name();
        }
        if (expr instanceof Expr.TokenParameterRef parameter) {
            return "token_parameters." + parameter.name();
        }
        if (expr instanceof Expr.Literal literal) {
            return "the literal " + CanonicalJson.toJson(literal.value());
        }
        if (expr instanceof Expr.FunctionCall call) {
            return call.displayName();
        }
        if (expr instanceof Expr.JsonExtract extract) {
            return expression(extract.target()) + (extract.asText() ? " ->> '" : " -> '") + extract.key() + "'";
        }
        return "a condition";
    }
}
