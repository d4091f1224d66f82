package io.tributary.syncrules.internals.eval;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.syncrules.RequestContext;
import io.tributary.syncrules.internals.sql.Expr;
import io.tributary.syncrules.internals.sql.SqlException;
import java.util.ArrayList;
import java.util.List;

/**
 * Resolves the operands of parameter queries (without FROM): {@code request.user_id()},
 * {@code request.jwt() ->> 'claim'}, {@code request.parameters() ->> 'name'}, {@code token_parameters.name}
 * (the {@code sub} claim for {@code user_id}, else the token's {@code parameters} claim) and literals.
 * {@code ->} and {@code ->>} both yield the JSON value at the key and may be chained.
 */
final class RequestOperands implements FilterCompiler.OperandResolver<RequestContext> {

    private static final String SUPPORTED = "supported: request.user_id(), request.jwt() ->> 'claim', "
        + "request.parameters() ->> 'name', token_parameters.<name>";

    @Override
    public ValueSource<RequestContext> resolve(Expr operand) throws SqlException {
        if (operand instanceof Expr.Literal literal) {
            return new ValueSource.Constant<>(literal.value());
        }
        if (operand instanceof Expr.TokenParameterRef parameter) {
            String name = parameter.name();
            if (name.equals("user_id")) {
                return request -> request.claim("sub");
            }
            return request -> request.claim("parameters").path(name);
        }
        if (operand instanceof Expr.FunctionCall call) {
            checkFunction(call);
            if (call.name().equals("user_id")) {
                return request -> request.claim("sub");
            }
            throw new SqlException(call.offset(), call.displayName() + " returns a JSON object; select one of its "
                + "values with " + call.displayName() + " ->> 'name'");
        }
        if (operand instanceof Expr.JsonExtract extract) {
            return extract(extract);
        }
        if (operand instanceof Expr.ColumnRef column) {
            throw new SqlException(column.offset(), "parameter queries without FROM cannot read columns (found "
                + Describe.expression(column) + "); " + SUPPORTED);
        }
        if (operand instanceof Expr.BucketParameterRef parameter) {
            throw new SqlException(parameter.offset(), "bucket." + parameter.name()
                + " is only available in data queries");
        }
        throw new SqlException(operand.offset(), "expected a value but found a condition");
    }

    private ValueSource<RequestContext> extract(Expr.JsonExtract extract) throws SqlException {
        List<String> path = new ArrayList<>();
        Expr target = extract;
        while (target instanceof Expr.JsonExtract step) {
            path.add(0, step.key());
            target = step.target();
        }
        if (!(target instanceof Expr.FunctionCall call)) {
            throw new SqlException(target.offset(), "unsupported SQL: -> and ->> are only supported on "
                + "request.jwt() and request.parameters()");
        }
        checkFunction(call);
        if (call.name().equals("user_id")) {
            throw new SqlException(call.offset(), "request.user_id() is a string; -> and ->> apply to "
                + "request.jwt() and request.parameters()");
        }
        boolean jwt = call.name().equals("jwt");
        String first = path.get(0);
        String[] rest = path.subList(1, path.size()).toArray(new String[0]);
        return request -> {
            JsonNode value = jwt ? request.claim(first) : request.clientParameter(first);
            for (String key : rest) {
                value = value.path(key);
            }
            return value;
        };
    }

    private static void checkFunction(Expr.FunctionCall call) throws SqlException {
        boolean known = call.namespace().filter("request"::equals).isPresent()
            && (call.name().equals("user_id") || call.name().equals("jwt") || call.name().equals("parameters"));
        if (!known) {
            throw new SqlException(call.offset(), "unknown function " + call.displayName() + " (" + SUPPORTED + ")");
        }
        if (!call.arguments().isEmpty()) {
            throw new SqlException(call.arguments().get(0).offset(), call.displayName() + " takes no arguments");
        }
    }
}
