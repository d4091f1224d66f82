package io.tributary.syncrules;

import java.util.Objects;

/**
 * What a source row stores for a parameter query that reads its table: under {@code lookup}, the bucket
 * parameters the row contributes. A client whose request makes the same lookup gets a bucket from these values.
 *
 * @param lookup     the lookup key, canonical JSON: {@code ["<definition>",<query index>,<value>...]}, values as
 *                   bucket parameter texts (see {@link ParameterQuerier#lookups()})
 * @param parameters a JSON object of the bucket parameters the row selects, each value as its bucket parameter
 *                   text (e.g. {@code {"list_id":"l1"}})
 */
public record ParameterRow(String lookup, String parameters) {

    public ParameterRow {
        Objects.requireNonNull(lookup, "lookup");
        Objects.requireNonNull(parameters, "parameters");
    }
}
