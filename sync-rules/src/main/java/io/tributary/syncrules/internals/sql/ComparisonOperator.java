package io.tributary.syncrules.internals.sql;

/** The comparison operators of the subset, with their negation and their mirror image. */
public enum ComparisonOperator {
    EQUAL("="),
    NOT_EQUAL("<>"),
    LESS("<"),
    LESS_OR_EQUAL("<="),
    GREATER(">"),
    GREATER_OR_EQUAL(">=");

    private final String symbol;

    ComparisonOperator(String symbol) {
        this.symbol = symbol;
    }

    /** The SQL spelling. */
    public String symbol() {
        return symbol;
    }

    /** The operator {@code op'} with {@code NOT (a op b) == a op' b} (exact under three-valued logic). */
    public ComparisonOperator negate() {
        switch (this) {
            case EQUAL:
                return NOT_EQUAL;
            case NOT_EQUAL:
                return EQUAL;
            case LESS:
                return GREATER_OR_EQUAL;
            case LESS_OR_EQUAL:
                return GREATER;
            case GREATER:
                return LESS_OR_EQUAL;
            case GREATER_OR_EQUAL:
                return LESS;
            default:
                throw new IllegalStateException("unknown operator " + this);
        }
    }

    /** The operator {@code op'} with {@code (a op b) == (b op' a)}. */
    public ComparisonOperator mirror() {
        switch (this) {
            case LESS:
                return GREATER;
            case LESS_OR_EQUAL:
                return GREATER_OR_EQUAL;
            case GREATER:
                return LESS;
            case GREATER_OR_EQUAL:
                return LESS_OR_EQUAL;
            case EQUAL:
            case NOT_EQUAL:
                return this;
            default:
                throw new IllegalStateException("unknown operator " + this);
        }
    }

    /** Whether a three-way comparison result {@code cmp} (negative, zero, positive) satisfies this operator. */
    public boolean accepts(int cmp) {
        switch (this) {
            case EQUAL:
                return cmp == 0;
            case NOT_EQUAL:
                return cmp != 0;
            case LESS:
                return cmp < 0;
            case LESS_OR_EQUAL:
                return cmp <= 0;
            case GREATER:
                return cmp > 0;
            case GREATER_OR_EQUAL:
                return cmp >= 0;
            default:
                throw new IllegalStateException("unknown operator " + this);
        }
    }
}
