package io.tributary.syncrules.internals.yaml;

import java.util.List;
import java.util.Objects;

/**
 * One bucket definition as written in the YAML, before its SQL is compiled.
 *
 * @param name              the definition name (the bucket name prefix)
 * @param parameterQueries  the parameter queries; empty for a global bucket
 * @param dataQueries       the data queries, at least one
 */
public record DefinitionSource(String name, List<ScalarText> parameterQueries,
                               List<ScalarText> dataQueries) {

    public DefinitionSource {
        Objects.requireNonNull(name, "name");
        parameterQueries = List.copyOf(parameterQueries);
        dataQueries = List.copyOf(dataQueries);
    }
}
