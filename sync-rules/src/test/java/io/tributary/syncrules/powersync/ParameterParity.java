package io.tributary.syncrules.powersync;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.syncrules.BucketParameters;
import io.tributary.syncrules.ParameterQuerier;
import io.tributary.syncrules.ParameterRow;
import io.tributary.syncrules.RequestContext;
import io.tributary.syncrules.SyncRules;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Compares table parameter queries with PowerSync's evaluator ({@code parameters.mjs}): for every source row, the
 * lookups it stores and their bucket parameters ({@code evaluateParameterRow}), and for every request, the bucket
 * set ({@code getBucketParameterQuerier}, dynamic buckets looked up among the rows' parameter sets).
 */
final class ParameterParity {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ParameterParity() {
    }

    /**
     * What PowerSync answered, how many of its buckets the documented null deviation left out, and how many errors
     * it reported for rows (a query whose row evaluation fails stores nothing, in both).
     */
    record Outcome(JsonNode theirs, long nullNamed, long rowErrors) {
    }

    /**
     * Asserts that Tributary's lookups of {@code rows} and bucket sets of the requests (claims and client
     * parameters pairwise) equal PowerSync's under {@code rules}. Lookups PowerSync stores that match
     * {@code deviatingLookup} (a line {@code definition [values] -> parameters}) are left out of the comparison, as
     * are buckets named with {@code null}: the documented deviations.
     */
    static Outcome assertSame(String rules, List<PgRow> rows, List<ObjectNode> claims,
                              List<ObjectNode> clientParameters, Predicate<String> deviatingLookup) {
        JsonNode theirs = PowerSyncOracle.run("parameters.mjs", request(rules, rows, claims, clientParameters));
        assertThat(theirs.get("errors")).as("PowerSync's problems with the rules").isEmpty();
        SyncRules parsed = SyncRules.parse(rules);

        Map<String, List<String>> stored = new HashMap<>();
        long errors = 0;
        for (int i = 0; i < rows.size(); i++) {
            PgRow row = rows.get(i);
            List<ParameterRow> ours = parsed.parameterRows(row.sourceTable(),
                row.canonicalJson().getBytes(StandardCharsets.UTF_8));
            ours.forEach(r -> stored.computeIfAbsent(r.lookup(), k -> new ArrayList<>()).add(r.parameters()));
            JsonNode expected = theirs.get("rows").get(i);
            TreeSet<String> expectedLookups = theirLookups(expected);
            expectedLookups.removeIf(deviatingLookup);
            assertThat(lookups(ours)).as("lookups of %s %s (PowerSync's errors: %s)", row.table(),
                row.canonicalJson(), expected.get("errors")).isEqualTo(expectedLookups);
            errors += expected.get("errors").size();
        }
        long nullNamed = 0;
        for (int i = 0; i < claims.size(); i++) {
            ParameterQuerier querier = parsed.querier(new RequestContext(claims.get(i), clientParameters.get(i)));
            List<String> ours = querier.buckets(stored).stream().map(BucketParameters::bucket).toList();
            JsonNode expected = theirs.get("requests").get(i);
            assertThat(expected.get("errors")).isEmpty();
            List<String> buckets = new ArrayList<>();
            expected.get("buckets").forEach(b -> buckets.add(b.textValue()));
            nullNamed += buckets.stream().filter(ParameterParity::namedWithNull).count();
            buckets.removeIf(ParameterParity::namedWithNull);
            assertThat(new TreeSet<>(ours)).as("buckets of %s %s", claims.get(i), clientParameters.get(i))
                .isEqualTo(new TreeSet<>(buckets));
        }
        return new Outcome(theirs, nullNamed, errors);
    }

    /**
     * The documented deviation (docs/sync-rules.md): a selected request value that is missing names no bucket in
     * Tributary; PowerSync names a bucket with {@code null}, which no data row can be in.
     */
    static boolean namedWithNull(String bucket) {
        return bucket.contains(",null]") || bucket.contains("[null,") || bucket.contains(",null,")
            || bucket.endsWith("[null]");
    }

    /** Our rows as sorted {@code values -> parameters} lines (the definition and query index dropped). */
    private static TreeSet<String> lookups(List<ParameterRow> rows) {
        TreeSet<String> lines = new TreeSet<>();
        for (ParameterRow row : rows) {
            ArrayNode key = (ArrayNode) read(row.lookup());
            ArrayNode values = MAPPER.createArrayNode();
            for (int i = 2; i < key.size(); i++) {
                values.add(key.get(i));
            }
            lines.add(key.get(0).textValue() + " " + values + " -> " + numbersAsValues(read(row.parameters())));
        }
        return lines;
    }

    private static TreeSet<String> theirLookups(JsonNode row) {
        TreeSet<String> lines = new TreeSet<>();
        for (JsonNode lookup : row.get("lookups")) {
            for (JsonNode parameters : lookup.get("parameters")) {
                lines.add(lookup.get("definition").textValue() + " " + read(lookup.get("values").textValue())
                    + " -> " + numbersAsValues(read(parameters.textValue())));
            }
        }
        return lines;
    }

    /**
     * {@code parameters} with each number as its value: PowerSync stores a REAL {@code 3} as {@code 3.0}, Tributary
     * as the bucket parameter text {@code 3}; both name the same bucket (the bucket sets are compared as well).
     */
    private static String numbersAsValues(JsonNode parameters) {
        ObjectNode normalized = MAPPER.createObjectNode();
        parameters.properties().forEach(field -> normalized.put(field.getKey(), field.getValue().isNumber()
            ? field.getValue().decimalValue().stripTrailingZeros().toString() : field.getValue().toString()));
        return normalized.toString();
    }

    private static ObjectNode request(String rules, List<PgRow> rows, List<ObjectNode> claims,
                                      List<ObjectNode> parameters) {
        ObjectNode request = MAPPER.createObjectNode().put("yaml", rules);
        ArrayNode inputs = request.putArray("rows");
        for (PgRow row : rows) {
            ObjectNode input = inputs.addObject().put("schema", row.schema()).put("table", row.table());
            ObjectNode columns = input.putObject("columns");
            for (PgValue value : row.values()) {
                columns.putObject(value.column()).put("oid", value.oid()).put("text", value.text());
            }
        }
        ArrayNode requests = request.putArray("requests");
        for (int i = 0; i < claims.size(); i++) {
            requests.addObject().set("claims", claims.get(i));
            ((ObjectNode) requests.get(i)).set("parameters", parameters.get(i));
        }
        return request;
    }

    static JsonNode read(String json) {
        try {
            return MAPPER.readTree(json);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }
}
