package io.tributary.syncrules;

import static io.tributary.syncrules.TestRows.row;
import static io.tributary.syncrules.TestRows.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.junit.jupiter.api.Test;

class ParameterValuesTest {

    private static SyncRules definition(String parameters, String where) {
        return SyncRules.parse(yaml(
            "bucket_definitions:",
            "  d:",
            "    parameters: " + parameters,
            "    data:",
            "      - SELECT * FROM t WHERE " + where));
    }

    @Test
    void userIdIsTheTokenSubject() {
        SyncRules rules = definition("SELECT request.user_id() AS user_id", "owner = bucket.user_id");

        assertThat(rules.bucketsFor(RequestContext.forUser("u1"))).containsExactly("d[\"u1\"]");
    }

    @Test
    void bucketsOfAUserMatchTheBucketsOfTheirRows() {
        SyncRules rules = definition("SELECT request.user_id() AS user_id", "owner = bucket.user_id");

        String rowBucket = rules.evaluate("public.t", row("{'id': 1, 'owner': 'u1'}")).rows().get(0).bucket();

        assertThat(rules.bucketsFor(RequestContext.forUser("u1"))).containsExactly(rowBucket);
    }

    @Test
    void globalDefinitionIsVisibleToEveryone() {
        SyncRules rules = SyncRules.parse(yaml("bucket_definitions:", "  global:", "    data:",
            "      - SELECT * FROM t"));

        assertThat(rules.parameterValues(RequestContext.forUser("anyone")))
            .containsExactly(new BucketParameters("global", "global[]"));
    }

    @Test
    void jwtClaimIsReadWithArrowOperators() {
        SyncRules rules = definition("SELECT request.jwt() ->> 'org_id' AS org", "org_id = bucket.org");

        assertThat(rules.bucketsFor(RequestContext.withClaims(row("{'sub': 'u1', 'org_id': 42}"))))
            .containsExactly("d[42]");
    }

    @Test
    void nestedClaimIsReadWithChainedArrows() {
        SyncRules rules = definition("SELECT request.jwt() -> 'app' ->> 'org' AS org", "org_id = bucket.org");

        assertThat(rules.bucketsFor(RequestContext.withClaims(row("{'sub': 'u1', 'app': {'org': 'o1'}}"))))
            .containsExactly("d[\"o1\"]");
    }

    @Test
    void arrayClaimGivesOneBucketPerElement() {
        SyncRules rules = definition("SELECT request.jwt() ->> 'projects' AS project", "project_id IN bucket.project");

        assertThat(rules.bucketsFor(RequestContext.withClaims(row("{'projects': ['p1', 'p2', 'p1', null]}"))))
            .containsExactly("d[\"p1\"]", "d[\"p2\"]");
    }

    @Test
    void twoArrayParametersGiveEveryCombination() {
        SyncRules rules = definition("SELECT request.jwt() ->> 'a' AS a, request.jwt() ->> 'b' AS b",
            "x = bucket.a AND y = bucket.b");

        assertThat(rules.bucketsFor(RequestContext.withClaims(row("{'a': [1, 2], 'b': ['x', 'y']}"))))
            .containsExactly("d[1,\"x\"]", "d[1,\"y\"]", "d[2,\"x\"]", "d[2,\"y\"]");
    }

    @Test
    void missingOrNullClaimGivesNoBucket() {
        SyncRules rules = definition("SELECT request.jwt() ->> 'org' AS org", "org_id = bucket.org");

        assertThat(rules.bucketsFor(RequestContext.forUser("u1"))).isEmpty();
        assertThat(rules.bucketsFor(RequestContext.withClaims(row("{'org': null}")))).isEmpty();
    }

    @Test
    void tokenParametersReadTheParametersClaimAndUserIdTheSubject() {
        SyncRules rules = definition("SELECT token_parameters.user_id, token_parameters.team",
            "owner = bucket.user_id AND team = bucket.team");

        assertThat(rules.bucketsFor(RequestContext.withClaims(row("{'sub': 'u1', 'parameters': {'team': 't1'}}"))))
            .containsExactly("d[\"u1\",\"t1\"]");
    }

    @Test
    void clientParametersAreReadWithRequestParameters() {
        SyncRules rules = definition("SELECT request.parameters() ->> 'list' AS list", "list_id = bucket.list");

        RequestContext request = new RequestContext(row("{'sub': 'u1'}"), row("{'list': 'l9'}"));

        assertThat(rules.bucketsFor(request)).containsExactly("d[\"l9\"]");
    }

    @Test
    void parameterQueryWhereFiltersClients() {
        SyncRules rules = definition(
            "SELECT request.user_id() AS user_id WHERE request.jwt() ->> 'role' = 'admin'",
            "owner = bucket.user_id");

        assertThat(rules.bucketsFor(RequestContext.withClaims(row("{'sub': 'u1', 'role': 'admin'}"))))
            .containsExactly("d[\"u1\"]");
        assertThat(rules.bucketsFor(RequestContext.withClaims(row("{'sub': 'u2', 'role': 'user'}")))).isEmpty();
    }

    @Test
    void severalParameterQueriesAreUnited() {
        SyncRules rules = SyncRules.parse(yaml(
            "bucket_definitions:",
            "  d:",
            "    parameters:",
            "      - SELECT request.user_id() AS owner",
            "      - SELECT request.jwt() ->> 'delegate_of' AS owner",
            "    data:",
            "      - SELECT * FROM t WHERE owner_id = bucket.owner"));

        assertThat(rules.bucketsFor(RequestContext.withClaims(row("{'sub': 'u1', 'delegate_of': 'u2'}"))))
            .containsExactly("d[\"u1\"]", "d[\"u2\"]");
    }

    @Test
    void parameterOrderFollowsTheFirstParameterQuery() {
        SyncRules rules = SyncRules.parse(yaml(
            "bucket_definitions:",
            "  d:",
            "    parameters:",
            "      - SELECT request.user_id() AS u, request.jwt() ->> 'org' AS o",
            "      - SELECT request.jwt() ->> 'org2' AS o, request.jwt() ->> 'u2' AS u",
            "    data:",
            "      - SELECT * FROM t WHERE owner_id = bucket.u AND org_id = bucket.o"));

        assertThat(rules.bucketsFor(RequestContext.withClaims(
            row("{'sub': 'a', 'org': 1, 'org2': 2, 'u2': 'b'}")))).containsExactly("d[\"a\",1]", "d[\"b\",2]");
    }

    @Test
    void requestContextIsACopy() {
        var claims = JsonNodeFactory.instance.objectNode().put("sub", "u1");
        RequestContext request = RequestContext.withClaims(claims);

        claims.put("sub", "u2");

        assertThat(request.userId()).contains("u1");
    }
}
