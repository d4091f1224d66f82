package io.tributary.syncrules.internals.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.syncrules.internals.sql.Expr;
import io.tributary.syncrules.internals.sql.SqlException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Resolves the operands of a data query: columns of the row (optionally qualified with the table's name or alias)
 * and literals. Everything else is rejected with what is allowed instead. Remembers the columns it resolved, so
 * that evaluation can read only those. Used by one compiling thread.
 */
final class RowOperands implements FilterCompiler.OperandResolver<ObjectNode> {

    /**
     * A column of the row; absent keys read as {@code null}.
     *
     * @param name the exact key in the canonical row
     */
    record Column(String name) implements ValueSource<ObjectNode> {
        Column {
            Objects.requireNonNull(name, "name");
        }

        @Override
        public JsonNode get(ObjectNode row) {
            return row.get(name);
        }
    }

    private final Set<String> qualifiers;
    private final Set<String> columns = new LinkedHashSet<>();

    /** @param qualifiers the names a column may be qualified with: the table's alias, or its name. */
    RowOperands(Set<String> qualifiers) {
        this.qualifiers = Set.copyOf(qualifiers);
    }

    @Override
    public ValueSource<ObjectNode> resolve(Expr operand) throws SqlException {
        if (operand instanceof Expr.ColumnRef column) {
            return column(column);
        }
        if (operand instanceof Expr.Literal literal) {
            return new ValueSource.Constant<>(literal.value());
        }
        if (operand instanceof Expr.BucketParameterRef parameter) {
            throw new SqlException(parameter.offset(), "bucket." + parameter.name()
                + " can only be used as column = bucket." + parameter.name() + ", column IN bucket."
                + parameter.name() + " or bucket." + parameter.name() + " IN column");
        }
        if (operand instanceof Expr.TokenParameterRef parameter) {
            throw new SqlException(parameter.offset(), "token_parameters." + parameter.name()
                + " is only available in parameter queries; data queries use bucket parameters");
        }
        if (operand instanceof Expr.FunctionCall call) {
            if (call.namespace().filter("request"::equals).isPresent()) {
                throw new SqlException(call.offset(), call.displayName()
                    + " is only available in parameter queries; data queries use bucket parameters");
            }
            throw new SqlException(call.offset(), "unknown function " + call.displayName()
                + " (data queries support no functions)");
        }
        if (operand instanceof Expr.JsonExtract extract) {
            throw new SqlException(extract.offset(), "unsupported SQL: JSON operators (-> and ->>) are only "
                + "supported on request.jwt() and request.parameters() in parameter queries");
        }
        throw new SqlException(operand.offset(), "expected a column or a literal but found a condition");
    }

    /** The accessor of a column reference, after checking its qualifier and name. */
    Column column(Expr.ColumnRef column) throws SqlException {
        if (column.qualifier().isPresent() && !qualifiers.contains(column.qualifier().get())) {
            String expected = qualifiers.isEmpty() ? "give the table an alias to qualify columns"
                : "expected " + String.join(" or ", qualifiers.stream().sorted().toList());
            throw new SqlException(column.offset(), "unknown table '" + column.qualifier().get()
                + "' in column reference (" + expected + ")");
        }
        if (column.name().indexOf('%') >= 0) {
            throw new SqlException(column.offset(), "the wildcard % is only allowed in table names, not in column '"
                + column.name() + "'");
        }
        columns.add(column.name());
        return new Column(column.name());
    }

    /** The names of the columns resolved so far, in first-resolved order. */
    List<String> columns() {
        return List.copyOf(columns);
    }
}
