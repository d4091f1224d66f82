package io.tributary.syncrules.internals.eval;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.syncrules.internals.sql.ComparisonOperator;
import io.tributary.syncrules.internals.sql.Expr;
import io.tributary.syncrules.internals.sql.SqlException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;

/**
 * Compiles a data query's WHERE against its definition's parameters. Checks that bucket parameters appear only
 * as {@code column = bucket.p}, {@code column IN bucket.p} or {@code bucket.p IN column}, that each is declared,
 * and that the condition binds every parameter on every path (AND binds the union of its operands' parameters,
 * OR the intersection).
 */
final class WhereCompiler {

    private record Bind(int slot, String column, boolean expand) {
    }

    private final String definition;
    private final List<String> parameters;
    private final RowOperands operands;
    private final FilterCompiler<ObjectNode> filters;

    WhereCompiler(String definition, List<String> parameters, RowOperands operands) {
        this.definition = definition;
        this.parameters = List.copyOf(parameters);
        this.operands = operands;
        this.filters = new FilterCompiler<>(operands);
    }

    /** The plan for {@code where}; {@code whereOffset} places problems about the condition as a whole. */
    WherePlan compile(Optional<Expr> where, int whereOffset) throws SqlException {
        if (where.isEmpty()) {
            if (!parameters.isEmpty()) {
                throw unbound(whereOffset, parameters.get(0), false);
            }
            return WherePlan.global(definition, Filter.constant(true));
        }
        Expr condition = Conditions.normalize(where.get());
        if (!Conditions.mentionsBucket(condition)) {
            if (!parameters.isEmpty()) {
                throw unbound(whereOffset, parameters.get(0), false);
            }
            return WherePlan.global(definition, filters.compile(condition));
        }
        BitSet bound = bound(condition);
        for (int slot = 0; slot < parameters.size(); slot++) {
            if (!bound.get(slot)) {
                throw unbound(whereOffset, parameters.get(slot), mentions(condition, parameters.get(slot)));
            }
        }
        Optional<WherePlan> single = single(condition);
        return single.isPresent() ? single.get() : WherePlan.general(definition, node(condition));
    }

    private BitSet bound(Expr condition) throws SqlException {
        if (!Conditions.mentionsBucket(condition)) {
            return new BitSet();
        }
        if (condition instanceof Expr.And and) {
            BitSet union = new BitSet();
            for (Expr operand : and.operands()) {
                union.or(bound(operand));
            }
            return union;
        }
        if (condition instanceof Expr.Or or) {
            BitSet intersection = null;
            for (Expr operand : or.operands()) {
                BitSet operandBound = bound(operand);
                if (intersection == null) {
                    intersection = operandBound;
                } else {
                    intersection.and(operandBound);
                }
            }
            return intersection;
        }
        BitSet one = new BitSet();
        one.set(bind(condition).slot());
        return one;
    }

    private Optional<WherePlan> single(Expr condition) throws SqlException {
        List<Expr> parts = condition instanceof Expr.And and ? and.operands() : List.of(condition);
        String[] columns = new String[parameters.size()];
        List<Filter<ObjectNode>> conditions = new ArrayList<>();
        for (Expr part : parts) {
            if (!Conditions.mentionsBucket(part)) {
                conditions.add(filters.compile(part));
                continue;
            }
            if (part instanceof Expr.Or || part instanceof Expr.And) {
                return Optional.empty();
            }
            Bind bind = bind(part);
            if (bind.expand() || columns[bind.slot()] != null) {
                return Optional.empty();
            }
            columns[bind.slot()] = bind.column();
        }
        Filter<ObjectNode> filter = conditions.isEmpty() ? Filter.constant(true) : Filter.and(conditions);
        return Optional.of(WherePlan.single(definition, filter, List.of(columns)));
    }

    private BindingNode node(Expr condition) throws SqlException {
        if (!Conditions.mentionsBucket(condition)) {
            return BindingNode.filter(filters.compile(condition), parameters.size());
        }
        if (condition instanceof Expr.And and) {
            List<BindingNode> nodes = new ArrayList<>();
            List<Filter<ObjectNode>> plain = new ArrayList<>();
            for (Expr operand : and.operands()) {
                if (Conditions.mentionsBucket(operand)) {
                    nodes.add(node(operand));
                } else {
                    plain.add(filters.compile(operand));
                }
            }
            if (!plain.isEmpty()) {
                nodes.add(0, BindingNode.filter(Filter.and(plain), parameters.size()));
            }
            return nodes.size() == 1 ? nodes.get(0) : BindingNode.and(nodes);
        }
        if (condition instanceof Expr.Or or) {
            List<BindingNode> nodes = new ArrayList<>();
            for (Expr operand : or.operands()) {
                nodes.add(node(operand));
            }
            return BindingNode.or(nodes);
        }
        Bind bind = bind(condition);
        return BindingNode.bind(bind.column(), bind.slot(), parameters.size(), bind.expand());
    }

    private Bind bind(Expr condition) throws SqlException {
        if (condition instanceof Expr.Comparison c) {
            if (c.operator() != ComparisonOperator.EQUAL) {
                throw new SqlException(c.offset(), "bucket parameters can only be compared with = (found "
                    + c.operator().symbol() + ")");
            }
            if (c.left() instanceof Expr.BucketParameterRef p && c.right() instanceof Expr.ColumnRef column) {
                return new Bind(slot(p), operands.column(column).name(), false);
            }
            if (c.right() instanceof Expr.BucketParameterRef p && c.left() instanceof Expr.ColumnRef column) {
                return new Bind(slot(p), operands.column(column).name(), false);
            }
            throw new SqlException(c.offset(), "a bucket parameter must be compared with a column "
                + "(column = bucket.<name>)");
        }
        if (condition instanceof Expr.In in) {
            if (in.left() instanceof Expr.ColumnRef column && in.right() instanceof Expr.BucketParameterRef p) {
                return new Bind(slot(p), operands.column(column).name(), false);
            }
            if (in.left() instanceof Expr.BucketParameterRef p && in.right() instanceof Expr.ColumnRef column) {
                return new Bind(slot(p), operands.column(column).name(), true);
            }
            throw new SqlException(in.offset(), "IN with a bucket parameter needs a column on the other side "
                + "(column IN bucket.<name> or bucket.<name> IN column)");
        }
        throw new SqlException(condition.offset(), "bucket parameters can only be used as column = bucket.<name>, "
            + "column IN bucket.<name> or bucket.<name> IN column");
    }

    private int slot(Expr.BucketParameterRef parameter) throws SqlException {
        int slot = parameters.indexOf(parameter.name());
        if (slot < 0) {
            String declared = parameters.isEmpty() ? "it has no parameters"
                : "it declares " + String.join(", ", parameters);
            throw new SqlException(parameter.offset(), "unknown bucket parameter bucket." + parameter.name()
                + " (bucket definition '" + definition + "': " + declared + ")");
        }
        return slot;
    }

    private SqlException unbound(int offset, String parameter, boolean partly) {
        if (partly) {
            return new SqlException(offset, "bucket." + parameter + " is not bound in every branch of OR: "
                + "each branch must filter on it (column = bucket." + parameter + ")");
        }
        return new SqlException(offset, "data query does not bind bucket." + parameter + ": every data query of '"
            + definition + "' must filter on each parameter (column = bucket." + parameter + ")");
    }

    private static boolean mentions(Expr expr, String parameter) {
        if (expr instanceof Expr.BucketParameterRef p) {
            return p.name().equals(parameter);
        }
        if (expr instanceof Expr.Comparison c) {
            return mentions(c.left(), parameter) || mentions(c.right(), parameter);
        }
        if (expr instanceof Expr.In in) {
            return mentions(in.left(), parameter) || mentions(in.right(), parameter);
        }
        if (expr instanceof Expr.And and) {
            return and.operands().stream().anyMatch(e -> mentions(e, parameter));
        }
        if (expr instanceof Expr.Or or) {
            return or.operands().stream().anyMatch(e -> mentions(e, parameter));
        }
        return false;
    }
}
