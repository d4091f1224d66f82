package io.tributary.syncrules.internals.eval;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.syncrules.BucketRow;
import io.tributary.syncrules.Edition;
import io.tributary.syncrules.EvaluationError;
import io.tributary.syncrules.SourceTable;
import io.tributary.syncrules.internals.sql.Identifier;
import io.tributary.syncrules.internals.sql.Query;
import io.tributary.syncrules.internals.sql.SqlException;
import io.tributary.syncrules.internals.sql.TableRef;
import io.tributary.syncrules.internals.yaml.ScalarText;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A compiled data query: which source tables it reads, which buckets a row goes to, and the output row.
 * Immutable and thread-safe.
 */
public final class DataQuery {

    private static final String DEFAULT_SCHEMA = "public";

    private final String location;
    private final TablePattern tables;
    private final Optional<String> alias;
    private final WherePlan where;
    private final OutputPlan output;
    private final List<String> columns;
    private final int idLine;
    private final int idColumnNumber;

    private DataQuery(String location, TablePattern tables, Optional<String> alias, WherePlan where,
                      OutputPlan output, List<String> columns, int idLine, int idColumnNumber) {
        this.idLine = idLine;
        this.idColumnNumber = idColumnNumber;
        this.location = location;
        this.tables = tables;
        this.alias = alias;
        this.where = where;
        this.output = output;
        this.columns = columns;
    }

    /**
     * Compiles data query {@code index} of {@code definition}, whose parameters are {@code parameters};
     * {@code text} is the query's YAML scalar, for positions.
     */
    static DataQuery compile(String definition, List<String> parameters, int index, Query query, ScalarText text)
        throws SqlException {
        if (query.from().isEmpty()) {
            throw new SqlException(query.offset(), "data query needs FROM <table>");
        }
        TableRef from = query.from().get();
        Optional<String> alias = Optional.empty();
        if (from.alias().isPresent()) {
            Identifier name = from.alias().get();
            if (name.hasWildcard()) {
                throw new SqlException(name.offset(), "the wildcard % is not allowed in a table alias");
            }
            alias = Optional.of(name.value());
        }
        Set<String> qualifiers = alias.map(Set::of)
            .orElseGet(() -> from.table().hasWildcard() ? Set.of() : Set.of(from.table().value()));
        TablePattern tables = new TablePattern(
            NamePattern.of(from.schema().map(Identifier::value).orElse(DEFAULT_SCHEMA)),
            NamePattern.of(from.table().value()));
        RowOperands operands = new RowOperands(qualifiers);
        OutputPlan output = OutputPlan.compile(query.offset(), query.items(), operands, qualifiers);
        WherePlan where = new WhereCompiler(definition, parameters, operands).compile(query.where(),
            query.whereOffset());
        List<String> columns = new ArrayList<>(operands.columns());
        return new DataQuery(definition + ".data[" + index + "]", tables, alias, where, output, List.copyOf(columns),
            text.lineAt(output.idOffset()), text.columnAt(output.idOffset()));
    }

    /**
     * The columns the query reads from a row: in its conditions, its bucket parameters and its output. Meaningless
     * when {@link #readsEveryColumn()}.
     */
    List<String> columns() {
        return columns;
    }

    /** Whether evaluating the query needs the whole row ({@code *} among the output items). */
    boolean readsEveryColumn() {
        return output.readsEveryColumn();
    }

    /**
     * Whether the query's output is exactly {@code *}: from a canonical row text it is written without a tree
     * ({@link StarOutput}), and evaluating it needs only its {@link #columns()} and its id column as nodes.
     */
    boolean outputsWholeRow() {
        return output.isStarOnly();
    }

    /** Where the query is in the rules, e.g. {@code by_user.data[0]}. */
    public String location() {
        return location;
    }

    /** The source column the output {@code id} is read from; empty when the id is a literal. */
    public Optional<String> idColumn() {
        return output.idColumn();
    }

    /** The 1-based line in the document of the SELECT item that produces the id. */
    public int idLine() {
        return idLine;
    }

    /** The 1-based column in the document of the SELECT item that produces the id. */
    public int idColumnNumber() {
        return idColumnNumber;
    }

    /** The tables the query reads. */
    public TablePattern tables() {
        return tables;
    }

    /** Whether the query reads {@code table}. */
    public boolean reads(SourceTable table) {
        return tables.matches(table);
    }

    /** The output table name for rows of {@code table}: the alias, else the table's name without schema. */
    public String outputTable(SourceTable table) {
        return alias.orElse(table.name());
    }

    /**
     * Adds the bucket rows of {@code row} (of source table {@code table}, output as {@code outputTable}) to
     * {@code rows}, or an error to {@code errors}; returns whether the row matched any bucket. Unless
     * {@link #readsEveryColumn()}, {@code row} need only hold the row's {@link #columns()}. Output values are
     * written as the client gets them in {@code edition}.
     */
    boolean evaluate(SourceTable table, String outputTable, ObjectNode row, Edition edition,
                     List<BucketRow> rows, List<EvaluationError> errors) {
        return evaluate(table, outputTable, row, null, edition, rows, errors);
    }

    /**
     * As {@link #evaluate(SourceTable, String, ObjectNode, Edition, List, List)}, with the row's canonical text
     * {@code read} when the caller scanned it (else {@code null}): then {@code row} need only hold the row's
     * {@link #columns()} and id column, even when the query {@link #outputsWholeRow() outputs the whole row}.
     */
    boolean evaluate(SourceTable table, String outputTable, ObjectNode row, ColumnSelection.Read read,
                     Edition edition, List<BucketRow> rows, List<EvaluationError> errors) {
        List<String> buckets = where.buckets(row, edition);
        if (buckets.isEmpty()) {
            return false;
        }
        String id;
        try {
            id = output.id(row);
        } catch (OutputPlan.RowException e) {
            errors.add(new EvaluationError(table.qualifiedName(), location, e.getMessage()));
            return true;
        }
        String data = read != null && output.isStarOnly() ? StarOutput.data(read.text(), read.scan(), edition)
            : output.data(row, edition);
        for (String bucket : buckets) {
            rows.add(new BucketRow(bucket, outputTable, id, data));
        }
        return true;
    }

    @Override
    public String toString() {
        return location + " FROM " + tables;
    }
}
