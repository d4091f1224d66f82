package io.tributary.syncrules;

import static io.tributary.syncrules.TestRows.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What rows of a table a parameter query reads store, and how a client's lookups turn them into buckets. */
class TableParameterQueryTest {

    private static final SyncRules RULES = SyncRules.parse(yaml(
        "bucket_definitions:",
        "  list_members:",
        "    parameters: SELECT list_id FROM list_members WHERE user_id = request.user_id()",
        "    data:",
        "      - SELECT * FROM todos WHERE list_id = bucket.list_id"));

    private static List<ParameterRow> rows(String json) {
        return RULES.parameterRows("public.list_members", json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void memberRowStoresItsListUnderItsUser() {
        assertThat(rows("{\"id\":\"m1\",\"list_id\":\"l1\",\"user_id\":\"u1\"}"))
            .containsExactly(new ParameterRow("[\"list_members\",0,\"u1\"]", "{\"list_id\":\"l1\"}"));
    }

    @Test
    void rowWithNullLookupOrSelectedValueStoresNothing() {
        assertThat(rows("{\"id\":\"m1\",\"list_id\":\"l1\",\"user_id\":null}")).isEmpty();
        assertThat(rows("{\"id\":\"m1\",\"list_id\":null,\"user_id\":\"u1\"}")).isEmpty();
    }

    @Test
    void parameterTablesAreReadAndCapturedButHaveNoDataQuery() {
        assertThat(RULES.readsParameters("public.list_members")).isTrue();
        assertThat(RULES.reads("public.list_members")).isTrue();
        assertThat(RULES.readsParameters("public.todos")).isFalse();
        assertThat(RULES.tablesMatching(List.of("public.todos", "public.list_members", "public.other")))
            .containsExactly("public.todos", "public.list_members");
        assertThat(RULES.evaluate("public.list_members", "{\"id\":\"m1\"}").rows()).isEmpty();
    }

    @Test
    void clientLooksUpItsUserAndGetsOneBucketPerStoredRow() {
        ParameterQuerier querier = RULES.querier(RequestContext.forUser("u1"));

        assertThat(querier.staticBuckets()).isEmpty();
        assertThat(querier.lookups()).containsExactly("[\"list_members\",0,\"u1\"]");
        assertThat(querier.buckets(Map.of("[\"list_members\",0,\"u1\"]",
            List.of("{\"list_id\":\"l1\"}", "{\"list_id\":\"l2\"}"))))
            .extracting(BucketParameters::bucket).containsExactly("list_members[\"l1\"]", "list_members[\"l2\"]");
        assertThat(RULES.bucketsFor(RequestContext.forUser("u1"))).as("no bucket without its lookup").isEmpty();
    }

    @Test
    void clientWithoutTheRequestValueLooksUpNothing() {
        ParameterQuerier querier = RULES.querier(RequestContext.withClaims(
            com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode()));

        assertThat(querier.hasDynamicBuckets()).isFalse();
        assertThat(querier.buckets(Map.of())).isEmpty();
    }
}
