package io.tributary.syncrules.internals.yaml;

import java.util.List;
import java.util.Objects;

/**
 * One bucket definition as written in the YAML, before its SQL is compiled.
 *
 * @param name              the definition name (the bucket name prefix)
 * @param parameterQueries  the parameter queries; empty for a global bucket
 * @param dataQueries       the data queries, at least one
 * @param priority          the sync priority of its buckets: 0 (synced first) to 3 (the default)
 */
public record DefinitionSource(String name, List<ScalarText> parameterQueries,
                               List<ScalarText> dataQueries, int priority) {

    /** The priority of a definition that names none. */
    public static final int DEFAULT_PRIORITY = 3;

    /** A definition of the default priority. */
    public DefinitionSource(String name, List<ScalarText> parameterQueries, List<ScalarText> dataQueries) {
        this(name, parameterQueries, dataQueries, DEFAULT_PRIORITY);
    }

    public DefinitionSource {
        if (priority < 0 || priority > DEFAULT_PRIORITY) {
            throw new IllegalArgumentException("Bucket priority outside 0..3: " + priority);
        }
        Objects.requireNonNull(name, "name");
        parameterQueries = List.copyOf(parameterQueries);
        dataQueries = List.copyOf(dataQueries);
    }
}
