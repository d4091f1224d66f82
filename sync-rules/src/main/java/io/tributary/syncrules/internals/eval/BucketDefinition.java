package io.tributary.syncrules.internals.eval;

import io.tributary.syncrules.BucketParameters;
import io.tributary.syncrules.ParameterQuerier;
import io.tributary.syncrules.RequestContext;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A compiled bucket definition: its parameters (in declaration order), parameter queries and data queries.
 * Immutable and thread-safe.
 */
public final class BucketDefinition {

    private final String name;
    private final List<String> parameters;
    private final List<ParameterQuery> parameterQueries;
    private final List<TableParameterQuery> tableQueries;
    private final List<DataQuery> dataQueries;
    private final int priority;

    BucketDefinition(String name, List<String> parameters, List<ParameterQuery> parameterQueries,
                     List<TableParameterQuery> tableQueries, List<DataQuery> dataQueries, int priority) {
        this.name = name;
        this.parameters = List.copyOf(parameters);
        this.parameterQueries = List.copyOf(parameterQueries);
        this.tableQueries = List.copyOf(tableQueries);
        this.dataQueries = List.copyOf(dataQueries);
        this.priority = priority;
    }

    /** The sync priority of this definition's buckets: 0 (synced first) to 3 (the default). */
    public int priority() {
        return priority;
    }

    /** The definition name. */
    public String name() {
        return name;
    }

    /** The parameter names in declaration order (the order of values in bucket names); empty when global. */
    public List<String> parameters() {
        return parameters;
    }

    /** The data queries in rule order. */
    public List<DataQuery> dataQueries() {
        return dataQueries;
    }

    /** The parameter queries with FROM, in rule order. */
    List<TableParameterQuery> tableQueries() {
        return tableQueries;
    }

    /**
     * The buckets of this definition that {@code request} may see from its parameter queries without FROM,
     * without duplicates, in query order (a definition without any parameter query: its one global bucket).
     */
    public List<BucketParameters> bucketsFor(RequestContext request) {
        if (parameterQueries.isEmpty() && tableQueries.isEmpty()) {
            return List.of(new BucketParameters(name, name + "[]"));
        }
        Set<String> buckets = new LinkedHashSet<>();
        for (ParameterQuery query : parameterQueries) {
            for (String[] combination : query.combinations(request, parameters)) {
                buckets.add(WherePlan.bucketName(name, combination));
            }
        }
        return buckets.stream().map(bucket -> new BucketParameters(name, bucket)).toList();
    }

    /** Adds the lookups of this definition's parameter queries with FROM for {@code request} to {@code lookups}. */
    void addLookups(RequestContext request, Map<String, ParameterQuerier.Resolver> lookups) {
        for (TableParameterQuery query : tableQueries) {
            query.addLookups(request, parameters, lookups);
        }
    }
}
