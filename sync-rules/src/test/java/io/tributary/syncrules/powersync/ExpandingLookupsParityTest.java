package io.tributary.syncrules.powersync;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code IN} with a request value in parameter queries with FROM, against PowerSync's evaluator: a column tested
 * against a request array (PowerSync's expanding lookups: client parameters, a JWT claim, the token's
 * {@code parameters} claim; an array value, a string holding a JSON array read with {@code ->>}, the same string
 * read with {@code ->}, which is never an array) and a request value tested against an array column (a Postgres
 * array, a jsonb array, text holding a JSON array, null, an empty array, an object). Numbers in arrays and lookups
 * are normalized as PowerSync does (integer-valued numbers as integers, through JavaScript doubles).
 */
class ExpandingLookupsParityTest {

    private static final String RULES = String.join("\n",
        "bucket_definitions:",
        "  by_ids:",
        "    parameters: SELECT id AS list_id FROM lists WHERE id IN request.parameters() ->> 'list_ids'",
        "    data:",
        "      - SELECT * FROM todos WHERE list_id = bucket.list_id",
        "  by_claim:",
        "    parameters: >-",
        "      SELECT id AS list_id, org_id AS org FROM lists",
        "      WHERE id IN request.jwt() -> 'lists' AND org_id = request.jwt() ->> 'org'",
        "    data:",
        "      - SELECT * FROM todos WHERE list_id = bucket.list_id AND org_id = bucket.org",
        "  by_orgs:",
        "    parameters: SELECT id AS list_id FROM lists WHERE org_id IN token_parameters.orgs AND archived = false",
        "    data:",
        "      - SELECT * FROM todos WHERE list_id = bucket.list_id",
        "  by_member:",
        "    parameters: SELECT id AS list_id FROM lists WHERE request.user_id() IN members",
        "    data:",
        "      - SELECT * FROM todos WHERE list_id = bucket.list_id",
        "  by_tag:",
        "    parameters: >-",
        "      SELECT id AS list_id, request.jwt() ->> 'role' AS role FROM lists",
        "      WHERE request.jwt() ->> 'tag' IN tags AND org_id = token_parameters.org",
        "    data:",
        "      - SELECT * FROM todos WHERE list_id = bucket.list_id AND kind = bucket.role",
        "  by_json_text:",
        "    parameters: SELECT id AS list_id FROM lists WHERE id IN request.parameters() -> 'ids_text'",
        "    data:",
        "      - SELECT * FROM todos WHERE list_id = bucket.list_id",
        "  by_text:",
        "    parameters: SELECT id AS list_id FROM lists WHERE id IN request.parameters() ->> 'ids_text'",
        "    data:",
        "      - SELECT * FROM todos WHERE list_id = bucket.list_id",
        "  by_weight:",
        "    parameters: SELECT id AS list_id FROM lists WHERE weight IN request.parameters() ->> 'weights'",
        "    data:",
        "      - SELECT * FROM todos WHERE list_id = bucket.list_id",
        "  by_exact_weight:",
        "    parameters: SELECT id AS list_id FROM lists WHERE weight = request.parameters() ->> 'weight'",
        "    data:",
        "      - SELECT * FROM todos WHERE list_id = bucket.list_id",
        "");

    @Test
    void expandingLookupsEqualPowerSyncs() {
        List<PgRow> rows = List.of(
            row(text("id", "l1"), int8("org_id", "7"), new PgValue("members", 1009, "{u1,u2}", "[\"u1\",\"u2\"]"),
                new PgValue("tags", 3802, "[\"red\", \"blue\"]", "[\"red\",\"blue\"]"), bool("archived", "f"),
                float8("weight", "2.5", "2.5")),
            row(text("id", "l2"), int8("org_id", "8"), new PgValue("members", 1009, "{u2}", "[\"u2\"]"),
                new PgValue("tags", 3802, "[\"red\", 5, 2.5]", "[\"red\",5,2.5]"), bool("archived", "f"),
                float8("weight", "3", "3.0")),
            row(text("id", "l3"), int8("org_id", "9007199254740992"), new PgValue("members", 1009, null, "null"),
                new PgValue("tags", 3802, "{\"a\": 1}", "{\"a\":1}"), bool("archived", "f"),
                float8("weight", "1e+21", "1e+21")),
            row(text("id", "l4"), int8("org_id", "7"), new PgValue("members", 1009, "{}", "[]"),
                text("tags", "[\"green\",\"red\"]"), bool("archived", "t"), float8("weight", "0.1", "0.1")),
            row(text("id", "l5"), int8("org_id", "8"), new PgValue("members", 1007, "{1,2}", "[1,2]"),
                new PgValue("tags", 1009, "{blue,NULL}", "[\"blue\",null]"), bool("archived", "f"),
                float8("weight", "-0.5", "-0.5")));
        List<ObjectNode> claims = List.of(
            json("{\"sub\":\"u1\",\"org\":7,\"lists\":[\"l1\",\"l2\",\"l5\"],\"tag\":\"red\",\"role\":\"admin\","
                + "\"parameters\":{\"orgs\":[7,8],\"org\":7}}"),
            json("{\"sub\":\"u2\",\"org\":8,\"lists\":\"[\\\"l2\\\"]\",\"tag\":\"blue\","
                + "\"parameters\":{\"orgs\":\"[8]\",\"org\":8}}"),
            json("{\"sub\":\"2\",\"org\":9007199254740992,\"lists\":[1,\"l3\",null,true,{\"a\":1},[\"l1\"]],"
                + "\"tag\":\"green\",\"role\":\"x\",\"parameters\":{\"orgs\":[9007199254740993,7.0],\"org\":7}}"),
            json("{\"sub\":\"u4\",\"parameters\":{\"orgs\":7}}"));
        List<ObjectNode> clientParameters = List.of(
            json("{\"list_ids\":[\"l1\",\"l3\",\"l1\"],\"ids_text\":\"[\\\"l2\\\"]\",\"weights\":[2.5,3],"
                + "\"weight\":3}"),
            json("{\"list_ids\":\"[\\\"l2\\\",\\\"l9\\\"]\",\"weights\":\"[1e21]\",\"weight\":1e21}"),
            json("{\"list_ids\":\"not json\",\"ids_text\":[\"l4\"],\"weights\":[3.0,-0.5,0.1],\"weight\":2.5}"),
            json("{\"list_ids\":{\"l1\":true},\"ids_text\":7,\"weights\":[]}"));

        ParameterParity.Outcome outcome = ParameterParity.assertSame(RULES, rows, claims, clientParameters,
            ExpandingLookupsParityTest::deviates);
        assertThat(outcome.theirs().get("requests").get(0).get("buckets")).as("the corpus reaches the definitions")
            .hasSizeGreaterThanOrEqualTo(8);
        assertThat(outcome.rowErrors()).as("a jsonb object tested with IN is an error of the row").isPositive();
    }

    /**
     * The documented deviation: an array element that is null stores no lookup (PowerSync stores one under
     * {@code null}, which a request whose value is missing would match).
     */
    private static boolean deviates(String lookup) {
        String values = lookup.substring(lookup.indexOf(' ') + 1, lookup.indexOf(" -> "));
        return values.matches(".*[\\[,]null[,\\]].*");
    }

    private static PgRow row(PgValue... values) {
        return new PgRow("public", "lists", List.of(values));
    }

    private static PgValue text(String column, String value) {
        return new PgValue(column, 25, value, com.fasterxml.jackson.databind.node.TextNode.valueOf(value).toString());
    }

    private static PgValue int8(String column, String value) {
        return new PgValue(column, 20, value, value);
    }

    private static PgValue float8(String column, String text, String canonical) {
        return new PgValue(column, 701, text, canonical);
    }

    private static PgValue bool(String column, String value) {
        return new PgValue(column, 16, value, value.equals("t") ? "true" : "false");
    }

    private static ObjectNode json(String text) {
        return (ObjectNode) ParameterParity.read(text);
    }
}
