package io.tributary.syncrules.internals.eval;

import io.tributary.syncrules.Problem;
import io.tributary.syncrules.internals.sql.Parser;
import io.tributary.syncrules.internals.sql.Query;
import io.tributary.syncrules.internals.sql.SqlException;
import io.tributary.syncrules.internals.yaml.DefinitionSource;
import io.tributary.syncrules.internals.yaml.ScalarText;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;

/**
 * Compiles bucket definitions read from YAML, turning every SQL problem into a {@link Problem} at its line and
 * column. Each query reports at most its first problem; all queries are checked.
 */
public final class RulesCompiler {

    private final List<Problem> problems;

    private RulesCompiler(List<Problem> problems) {
        this.problems = problems;
    }

    /** The compiled definitions; problems are added to {@code problems} (the result is unusable if any). */
    public static List<BucketDefinition> compile(List<DefinitionSource> sources, List<Problem> problems) {
        RulesCompiler compiler = new RulesCompiler(problems);
        List<BucketDefinition> definitions = new ArrayList<>();
        for (DefinitionSource source : sources) {
            compiler.definition(source).ifPresent(definitions::add);
        }
        return definitions;
    }

    private Optional<BucketDefinition> definition(DefinitionSource source) {
        int before = problems.size();
        List<ParameterQuery> parameterQueries = new ArrayList<>();
        List<TableParameterQuery> tableQueries = new ArrayList<>();
        List<String> parameters = null;
        for (int i = 0; i < source.parameterQueries().size(); i++) {
            ScalarText text = source.parameterQueries().get(i);
            int index = i;
            Optional<Query> parsed = parse(text);
            if (parsed.isEmpty()) {
                continue;
            }
            boolean fromTable = parsed.get().from().isPresent();
            Optional<List<String>> names = fromTable
                ? compile(text, () -> TableParameterQuery.compile(source.name(), index, parsed.get()))
                    .map(q -> add(tableQueries, q, q.names()))
                : compile(text, () -> ParameterQuery.compile(parsed.get()))
                    .map(q -> add(parameterQueries, q, q.names()));
            if (names.isEmpty()) {
                continue;
            }
            if (parameters == null) {
                parameters = names.get();
            } else if (!new HashSet<>(names.get()).equals(new HashSet<>(parameters))) {
                problems.add(text.problemAtStart("parameter query returns (" + String.join(", ", names.get())
                    + ") but the first parameter query of '" + source.name() + "' returns ("
                    + String.join(", ", parameters) + "): all must return the same parameters"));
            }
        }
        if (parameters == null) {
            parameters = List.of();
        }
        boolean parametersKnown = problems.size() == before;
        List<DataQuery> dataQueries = new ArrayList<>();
        for (int i = 0; i < source.dataQueries().size(); i++) {
            ScalarText text = source.dataQueries().get(i);
            Optional<Query> parsed = parse(text);
            if (parsed.isEmpty() || !parametersKnown) {
                continue;
            }
            int index = i;
            List<String> declared = parameters;
            compile(text, () -> DataQuery.compile(source.name(), declared, index, parsed.get(), text))
                .ifPresent(dataQueries::add);
        }
        if (problems.size() > before) {
            return Optional.empty();
        }
        return Optional.of(new BucketDefinition(source.name(), parameters, parameterQueries, tableQueries, dataQueries,
            source.priority()));
    }

    private static <Q> List<String> add(List<Q> queries, Q query, List<String> names) {
        queries.add(query);
        return names;
    }

    private Optional<Query> parse(ScalarText text) {
        return compile(text, () -> Parser.parse(text.value()));
    }

    private <T> Optional<T> compile(ScalarText text, SqlStep<T> step) {
        try {
            return Optional.of(step.run());
        } catch (SqlException e) {
            problems.add(text.problemAt(e.offset(), e.getMessage()));
            return Optional.empty();
        }
    }

    @FunctionalInterface
    private interface SqlStep<T> {
        T run() throws SqlException;
    }
}
