package io.tributary.syncrules;

import static io.tributary.syncrules.TestRows.row;
import static io.tributary.syncrules.TestRows.yaml;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import org.junit.jupiter.api.Test;

class EvaluationTest {

    private static SyncRules rules(String... lines) {
        return SyncRules.parse(yaml(lines));
    }

    @Test
    void globalBucketHoldsEveryRowOfTheTable() {
        SyncRules rules = rules(
            "bucket_definitions:",
            "  global:",
            "    data:",
            "      - SELECT * FROM lists");

        EvaluationResult result = rules.evaluate("public.lists", row("{'id': 'l1', 'name': 'Groceries'}"));

        assertThat(result.rows()).containsExactly(
            new BucketRow("global[]", "lists", "l1", "{\"id\":\"l1\",\"name\":\"Groceries\"}"));
        assertThat(result.errors()).isEmpty();
    }

    @Test
    void parameterBucketIsNamedByTheRowsValue() {
        SyncRules rules = rules(
            "bucket_definitions:",
            "  by_user:",
            "    parameters: SELECT request.user_id() AS user_id",
            "    data:",
            "      - SELECT id, title FROM todos WHERE owner_id = bucket.user_id");

        EvaluationResult result = rules.evaluate("public.todos",
            row("{'id': 't1', 'owner_id': 'u1', 'title': 'Buy milk'}"));

        assertThat(result.rows()).containsExactly(
            new BucketRow("by_user[\"u1\"]", "todos", "t1", "{\"id\":\"t1\",\"title\":\"Buy milk\"}"));
    }

    @Test
    void bucketNameListsParametersInDeclarationOrder() {
        SyncRules rules = rules(
            "bucket_definitions:",
            "  by_org_user:",
            "    parameters: SELECT request.jwt() ->> 'org' AS org, request.user_id() AS user_id",
            "    data:",
            "      - SELECT id FROM todos WHERE owner_id = bucket.user_id AND org_id = bucket.org");

        EvaluationResult result = rules.evaluate("public.todos", row("{'id': 't1', 'owner_id': 'u1', 'org_id': 7}"));

        assertThat(result.rows()).extracting(BucketRow::bucket).containsExactly("by_org_user[7,\"u1\"]");
    }

    @Test
    void rowWithNullParameterValueIsInNoBucket() {
        SyncRules rules = rules(
            "bucket_definitions:",
            "  by_user:",
            "    parameters: SELECT request.user_id() AS user_id",
            "    data:",
            "      - SELECT * FROM todos WHERE owner_id = bucket.user_id");

        assertThat(rules.evaluate("public.todos", row("{'id': 't1', 'owner_id': null}")).rows()).isEmpty();
        assertThat(rules.evaluate("public.todos", row("{'id': 't1'}")).rows()).isEmpty();
    }

    @Test
    void columnInArrayParameterBindsTheColumnValue() {
        SyncRules rules = rules(
            "bucket_definitions:",
            "  by_project:",
            "    parameters: SELECT request.jwt() ->> 'projects' AS project_id",
            "    data:",
            "      - SELECT * FROM tasks WHERE project_id IN bucket.project_id");

        EvaluationResult result = rules.evaluate("public.tasks", row("{'id': 1, 'project_id': 'p1'}"));

        assertThat(result.rows()).extracting(BucketRow::bucket).containsExactly("by_project[\"p1\"]");
    }

    @Test
    void parameterInArrayColumnPutsTheRowInOneBucketPerElement() {
        SyncRules rules = rules(
            "bucket_definitions:",
            "  by_tag:",
            "    parameters: SELECT request.parameters() ->> 'tag' AS tag",
            "    data:",
            "      - SELECT id FROM notes WHERE bucket.tag IN tags");

        EvaluationResult result = rules.evaluate("public.notes", row("{'id': 'n1', 'tags': ['a', 'b', 'a', null]}"));

        assertThat(result.rows()).extracting(BucketRow::bucket).containsExactly("by_tag[\"a\"]", "by_tag[\"b\"]");
    }

    @Test
    void parameterInTextColumnHoldingJsonArrayExpands() {
        SyncRules rules = rules(
            "bucket_definitions:",
            "  by_tag:",
            "    parameters: SELECT request.parameters() ->> 'tag' AS tag",
            "    data:",
            "      - SELECT id FROM notes WHERE bucket.tag IN tags");

        EvaluationResult result = rules.evaluate("public.notes", row("{'id': 'n1', 'tags': '[1, 2]'}"));

        assertThat(result.rows()).extracting(BucketRow::bucket).containsExactly("by_tag[1]", "by_tag[2]");
    }

    @Test
    void orOfBranchesBindingDifferentColumnsYieldsTheUnionOfBuckets() {
        SyncRules rules = rules(
            "bucket_definitions:",
            "  by_user:",
            "    parameters: SELECT request.user_id() AS user_id",
            "    data:",
            "      - SELECT * FROM todos WHERE owner_id = bucket.user_id OR assignee_id = bucket.user_id");

        EvaluationResult both = rules.evaluate("public.todos",
            row("{'id': 't1', 'owner_id': 'u1', 'assignee_id': 'u2'}"));
        EvaluationResult same = rules.evaluate("public.todos",
            row("{'id': 't1', 'owner_id': 'u1', 'assignee_id': 'u1'}"));

        assertThat(both.rows()).extracting(BucketRow::bucket).containsExactly("by_user[\"u1\"]", "by_user[\"u2\"]");
        assertThat(same.rows()).extracting(BucketRow::bucket).containsExactly("by_user[\"u1\"]");
    }

    @Test
    void orBranchesAreFilteredIndependently() {
        SyncRules rules = rules(
            "bucket_definitions:",
            "  by_user:",
            "    parameters: SELECT request.user_id() AS user_id",
            "    data:",
            "      - SELECT * FROM todos WHERE (owner_id = bucket.user_id AND archived = false)",
            "          OR (assignee_id = bucket.user_id AND status <> 'done')");

        EvaluationResult result = rules.evaluate("public.todos",
            row("{'id': 't1', 'owner_id': 'u1', 'archived': true, 'assignee_id': 'u2', 'status': 'open'}"));

        assertThat(result.rows()).extracting(BucketRow::bucket).containsExactly("by_user[\"u2\"]");
    }

    @Test
    void sameParameterBoundTwiceMustAgree() {
        SyncRules rules = rules(
            "bucket_definitions:",
            "  by_user:",
            "    parameters: SELECT request.user_id() AS user_id",
            "    data:",
            "      - SELECT * FROM todos WHERE owner_id = bucket.user_id AND creator_id = bucket.user_id");

        assertThat(rules.evaluate("public.todos", row("{'id': 1, 'owner_id': 'u1', 'creator_id': 'u1'}")).rows())
            .extracting(BucketRow::bucket).containsExactly("by_user[\"u1\"]");
        assertThat(rules.evaluate("public.todos", row("{'id': 1, 'owner_id': 'u1', 'creator_id': 'u2'}")).rows())
            .isEmpty();
    }

    @Test
    void aliasesRenameOutputColumnsInSelectOrder() {
        SyncRules rules = rules(
            "bucket_definitions:",
            "  global:",
            "    data:",
            "      - SELECT title AS name, todo_id AS id, 'todo' AS kind, 3 AS version FROM todos");

        EvaluationResult result = rules.evaluate("public.todos", row("{'todo_id': 5, 'title': 'x', 'other': 1}"));

        assertThat(result.rows()).containsExactly(new BucketRow("global[]", "todos", "5",
            "{\"name\":\"x\",\"id\":5,\"kind\":\"todo\",\"version\":3}"));
    }

    @Test
    void starExpandsInRowOrderAndExplicitItemsWin() {
        SyncRules rules = rules(
            "bucket_definitions:",
            "  global:",
            "    data:",
            "      - SELECT *, uuid AS id FROM items");

        EvaluationResult result = rules.evaluate("public.items", row("{'b': 1, 'id': 9, 'a': 2, 'uuid': 'x'}"));

        assertThat(result.rows()).extracting(BucketRow::id, BucketRow::data)
            .containsExactly(tuple("x", "{\"b\":1,\"a\":2,\"uuid\":\"x\",\"id\":\"x\"}"));
    }

    @Test
    void selectedMissingColumnIsNull() {
        SyncRules rules = rules(
            "bucket_definitions:",
            "  global:",
            "    data:",
            "      - SELECT id, title FROM todos");

        assertThat(rules.evaluate("public.todos", row("{'id': 't1'}")).rows())
            .extracting(BucketRow::data).containsExactly("{\"id\":\"t1\",\"title\":null}");
    }

    @Test
    void jsonValuesAreOutputAsJsonbText() {
        SyncRules rules = rules(
            "bucket_definitions:",
            "  global:",
            "    data:",
            "      - SELECT * FROM docs");

        EvaluationResult result = rules.evaluate("public.docs", "{\"id\":\"d1\",\"body\":{\"a\":[1,2.50,\"\\n\"]}}");

        assertThat(result.rows()).extracting(BucketRow::data)
            .containsExactly("{\"id\":\"d1\",\"body\":\"{\\\"a\\\": [1, 2.50, \\\"\\\\n\\\"]}\"}");
    }

    @Test
    void numericIdIsItsCanonicalText() {
        SyncRules rules = rules(
            "bucket_definitions:",
            "  global:",
            "    data:",
            "      - SELECT * FROM items");

        assertThat(rules.evaluate("public.items", "{\"id\":12345678901234}").rows())
            .extracting(BucketRow::id).containsExactly("12345678901234");
    }

    @Test
    void nullIdIsReportedAsAnErrorNotThrown() {
        SyncRules rules = rules(
            "bucket_definitions:",
            "  global:",
            "    data:",
            "      - SELECT * FROM items",
            "      - SELECT ref AS id FROM items");

        EvaluationResult result = rules.evaluate("public.items", row("{'id': null, 'ref': 'r1'}"));

        assertThat(result.rows()).extracting(BucketRow::id).containsExactly("r1");
        assertThat(result.errors()).containsExactly(
            new EvaluationError("public.items", "global.data[0]", "id is null"));
    }

    @Test
    void objectIdIsReportedAsAnError() {
        SyncRules rules = rules(
            "bucket_definitions:",
            "  global:",
            "    data:",
            "      - SELECT * FROM items");

        assertThat(rules.evaluate("public.items", row("{'id': {'a': 1}}")).errors())
            .extracting(EvaluationError::message).containsExactly("id must be a string or a number, got object");
    }

    @Test
    void outputTableIsTheAliasElseTheTableNameWithoutSchema() {
        SyncRules rules = rules(
            "bucket_definitions:",
            "  global:",
            "    data:",
            "      - SELECT * FROM \"tenant_%\".orders",
            "      - SELECT * FROM public.lists AS todo_lists");

        assertThat(rules.evaluate("tenant_7.orders", row("{'id': 1}")).rows())
            .extracting(BucketRow::table).containsExactly("orders");
        assertThat(rules.evaluate("public.lists", row("{'id': 1}")).rows())
            .extracting(BucketRow::table).containsExactly("todo_lists");
    }

    @Test
    void sameRowFromTwoQueriesIntoTheSameBucketIsKeptOnce() {
        SyncRules rules = rules(
            "bucket_definitions:",
            "  global:",
            "    data:",
            "      - SELECT id, 'first' AS source FROM items",
            "      - SELECT id, 'second' AS source FROM items");

        assertThat(rules.evaluate("public.items", row("{'id': 1}")).rows())
            .extracting(BucketRow::data).containsExactly("{\"id\":1,\"source\":\"first\"}");
    }

    @Test
    void rowGoesToEveryDefinitionThatSelectsIt() {
        SyncRules rules = rules(
            "bucket_definitions:",
            "  global:",
            "    data:",
            "      - SELECT id FROM todos",
            "  by_user:",
            "    parameters: SELECT request.user_id() AS user_id",
            "    data:",
            "      - SELECT id FROM todos WHERE owner_id = bucket.user_id");

        assertThat(rules.evaluate("public.todos", row("{'id': 1, 'owner_id': 'u1'}")).rows())
            .extracting(BucketRow::bucket).containsExactly("global[]", "by_user[\"u1\"]");
    }

    @Test
    void tableThatNoQueryReadsYieldsNothing() {
        SyncRules rules = rules(
            "bucket_definitions:",
            "  global:",
            "    data:",
            "      - SELECT * FROM todos");

        assertThat(rules.evaluate("public.other", row("{'id': 1}"))).isEqualTo(EvaluationResult.empty());
        assertThat(rules.evaluate("private.todos", row("{'id': 1}"))).isEqualTo(EvaluationResult.empty());
    }

    @Test
    void unqualifiedSourceTableIsRejected() {
        SyncRules rules = rules(
            "bucket_definitions:",
            "  global:",
            "    data:",
            "      - SELECT * FROM todos");

        assertThatThrownBy(() -> rules.evaluate("todos", row("{'id': 1}")))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("schema.table");
    }

    @Test
    void rowJsonThatIsNotAnObjectIsRejected() {
        SyncRules rules = rules(
            "bucket_definitions:",
            "  global:",
            "    data:",
            "      - SELECT * FROM todos");

        assertThatThrownBy(() -> rules.evaluate("public.todos", "[1]"))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("JSON object");
    }

    @Test
    void packageDocumentationExampleParsesAndEvaluates() {
        SyncRules rules = rules(
            "bucket_definitions:",
            "  global:                                  # no parameters: one bucket, global[]",
            "    data:",
            "      - SELECT id, name FROM lists WHERE archived = false",
            "  by_user:",
            "    parameters: SELECT request.user_id() AS user_id      # a query or a list of queries",
            "    data:",
            "      - SELECT * FROM todos WHERE owner_id = bucket.user_id OR assignee_id = bucket.user_id",
            "      - SELECT o.*, o.order_no AS id FROM \"tenant_%\".orders AS o WHERE o.customer = bucket.user_id");

        assertThat(rules.evaluate("tenant_a.orders", row("{'order_no': 7, 'customer': 'u1'}")).rows())
            .containsExactly(new BucketRow("by_user[\"u1\"]", "o", "7",
                "{\"order_no\":7,\"customer\":\"u1\",\"id\":7}"));
    }
}
