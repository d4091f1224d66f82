package io.tributary.syncrules.internals.sql;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A parsed SQL expression. The parser accepts one grammar for data and parameter queries; the compilers decide
 * which expressions each kind of query may use. Every node knows its offset in the query text.
 */
public sealed interface Expr {

    /** 0-based offset of the expression's first character in the query. */
    int offset();

    /** {@code [qualifier.]name}: a column of the row. */
    record ColumnRef(int offset, Optional<String> qualifier, String name) implements Expr {
        public ColumnRef {
            Objects.requireNonNull(qualifier, "qualifier");
            Objects.requireNonNull(name, "name");
        }
    }

    /** {@code bucket.name}: a bucket parameter. */
    record BucketParameterRef(int offset, String name) implements Expr {
        public BucketParameterRef {
            Objects.requireNonNull(name, "name");
        }
    }

    /** {@code token_parameters.name}: a token parameter (legacy PowerSync syntax). */
    record TokenParameterRef(int offset, String name) implements Expr {
        public TokenParameterRef {
            Objects.requireNonNull(name, "name");
        }
    }

    /** A string, number, boolean or null literal. */
    record Literal(int offset, JsonNode value) implements Expr {
        public Literal {
            Objects.requireNonNull(value, "value");
        }
    }

    /** {@code [namespace.]name(arguments)}. */
    record FunctionCall(int offset, Optional<String> namespace, String name, List<Expr> arguments) implements Expr {
        public FunctionCall {
            Objects.requireNonNull(namespace, "namespace");
            Objects.requireNonNull(name, "name");
            arguments = List.copyOf(arguments);
        }

        /** {@code namespace.name()} as written, e.g. {@code request.user_id()}. */
        public String displayName() {
            return namespace.map(n -> n + ".").orElse("") + name + "()";
        }
    }

    /** {@code target -> 'key'} ({@code asText == false}) or {@code target ->> 'key'}. */
    record JsonExtract(int offset, Expr target, String key, boolean asText) implements Expr {
        public JsonExtract {
            Objects.requireNonNull(target, "target");
            Objects.requireNonNull(key, "key");
        }
    }

    /** {@code left op right}. */
    record Comparison(int offset, ComparisonOperator operator, Expr left, Expr right) implements Expr {
        public Comparison {
            Objects.requireNonNull(operator, "operator");
            Objects.requireNonNull(left, "left");
            Objects.requireNonNull(right, "right");
        }
    }

    /** {@code left [NOT] IN right} where {@code right} is a single expression (an array). */
    record In(int offset, Expr left, Expr right, boolean negated) implements Expr {
        public In {
            Objects.requireNonNull(left, "left");
            Objects.requireNonNull(right, "right");
        }
    }

    /** {@code left [NOT] IN (v1, v2, ...)}. */
    record InList(int offset, Expr left, List<Expr> values, boolean negated) implements Expr {
        public InList {
            Objects.requireNonNull(left, "left");
            values = List.copyOf(values);
            if (values.isEmpty()) {
                throw new IllegalArgumentException("IN list must not be empty");
            }
        }
    }

    /** {@code operand IS [NOT] NULL}. */
    record IsNull(int offset, Expr operand, boolean negated) implements Expr {
        public IsNull {
            Objects.requireNonNull(operand, "operand");
        }
    }

    /** {@code a AND b AND ...}. */
    record And(int offset, List<Expr> operands) implements Expr {
        public And {
            operands = List.copyOf(operands);
            if (operands.size() < 2) {
                throw new IllegalArgumentException("AND needs at least two operands");
            }
        }
    }

    /** {@code a OR b OR ...}. */
    record Or(int offset, List<Expr> operands) implements Expr {
        public Or {
            operands = List.copyOf(operands);
            if (operands.size() < 2) {
                throw new IllegalArgumentException("OR needs at least two operands");
            }
        }
    }

    /** {@code NOT operand}. */
    record Not(int offset, Expr operand) implements Expr {
        public Not {
            Objects.requireNonNull(operand, "operand");
        }
    }
}
