package io.tributary.syncrules.powersync;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * OR and conditions on request values alone in parameter queries with FROM, against PowerSync's evaluator: OR
 * whose sides look up the same request values (a row is stored under each side's values), OR inside AND and over
 * an array column, conditions on claims alone (a lookup value of 1 on the row and 1 or 0 from the request), and
 * the same request value compared with two columns (one input: the first column's value, as PowerSync does).
 */
class ParameterConditionsParityTest {

    private static final String RULES = String.join("\n",
        "bucket_definitions:",
        "  owned_or_assigned:",
        "    parameters: >-",
        "      SELECT id AS list_id FROM lists WHERE owner = request.user_id() OR assignee = request.user_id()",
        "    data:",
        "      - SELECT * FROM todos WHERE list_id = bucket.list_id",
        "  open_owned_or_assigned:",
        "    parameters: >-",
        "      SELECT id AS list_id FROM lists",
        "      WHERE (owner = request.user_id() OR assignee = request.user_id()) AND archived = false",
        "    data:",
        "      - SELECT * FROM todos WHERE list_id = bucket.list_id",
        "  member_or_owner:",
        "    parameters: >-",
        "      SELECT id AS list_id FROM lists WHERE request.user_id() IN members OR owner = request.user_id()",
        "    data:",
        "      - SELECT * FROM todos WHERE list_id = bucket.list_id",
        "  org_admin:",
        "    parameters: >-",
        "      SELECT id AS list_id FROM lists",
        "      WHERE org_id = request.jwt() ->> 'org' AND request.jwt() ->> 'role' = 'admin'",
        "    data:",
        "      - SELECT * FROM todos WHERE list_id = bucket.list_id",
        "  staff_open:",
        "    parameters: >-",
        "      SELECT id AS list_id FROM lists WHERE archived = false",
        "      AND (request.jwt() ->> 'role' = 'admin' OR request.jwt() ->> 'role' = 'staff')",
        "    data:",
        "      - SELECT * FROM todos WHERE list_id = bucket.list_id",
        "  both_sides:",
        "    parameters: >-",
        "      SELECT id AS list_id, org_id AS org FROM lists",
        "      WHERE (org_id = request.jwt() ->> 'org' AND owner = request.user_id())",
        "      OR (assignee = request.user_id() AND org_id = request.jwt() ->> 'org')",
        "    data:",
        "      - SELECT * FROM todos WHERE list_id = bucket.list_id AND org_id = bucket.org",
        "  same_value_twice:",
        "    parameters: >-",
        "      SELECT id AS list_id FROM lists WHERE owner = request.user_id() AND assignee = request.user_id()",
        "    data:",
        "      - SELECT * FROM todos WHERE list_id = bucket.list_id",
        "");

    @Test
    void orAndRequestConditionsEqualPowerSyncs() {
        List<PgRow> rows = List.of(
            list("l1", "u1", "u2", 7, false, "{u3}", "[\"u3\"]"),
            list("l2", "u2", "u2", 7, false, "{u1,u2}", "[\"u1\",\"u2\"]"),
            list("l3", "u3", "u1", 8, true, "{}", "[]"),
            list("l4", "u1", null, 8, false, null, "null"),
            list("l5", "u4", "u1", 7, false, "{u1}", "[\"u1\"]"));
        List<ObjectNode> claims = List.of(
            json("{\"sub\":\"u1\",\"org\":7,\"role\":\"admin\"}"),
            json("{\"sub\":\"u2\",\"org\":7,\"role\":\"staff\"}"),
            json("{\"sub\":\"u3\",\"org\":8,\"role\":\"member\"}"),
            json("{\"sub\":\"u4\"}"));
        List<ObjectNode> clientParameters = List.of(json("{}"), json("{}"), json("{}"), json("{}"));

        ParameterParity.Outcome outcome = ParameterParity.assertSame(RULES, rows, claims, clientParameters,
            lookup -> false);
        assertThat(outcome.theirs().get("requests").get(0).get("buckets")).as("the corpus reaches the definitions")
            .hasSizeGreaterThanOrEqualTo(6);
    }

    private static PgRow list(String id, String owner, String assignee, int org, boolean archived, String members,
                              String membersCanonical) {
        return new PgRow("public", "lists", List.of(text("id", id), text("owner", owner), text("assignee", assignee),
            new PgValue("org_id", 23, Integer.toString(org), Integer.toString(org)),
            new PgValue("archived", 16, archived ? "t" : "f", Boolean.toString(archived)),
            new PgValue("members", 1009, members, membersCanonical)));
    }

    private static PgValue text(String column, String value) {
        return new PgValue(column, 25, value, value == null ? "null" : "\"" + value + "\"");
    }

    private static ObjectNode json(String text) {
        return (ObjectNode) ParameterParity.read(text);
    }
}
