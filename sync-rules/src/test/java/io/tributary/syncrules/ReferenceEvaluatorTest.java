package io.tributary.syncrules;

import static io.tributary.syncrules.TestRows.row;
import static io.tributary.syncrules.TestRows.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReferenceEvaluatorTest {

    private static final SyncRules RULES = SyncRules.parse(yaml(
        "bucket_definitions:",
        "  global:",
        "    data:",
        "      - SELECT id, name FROM lists",
        "  by_user:",
        "    parameters: SELECT request.user_id() AS user_id",
        "    data:",
        "      - SELECT id, title FROM todos WHERE owner_id = bucket.user_id",
        "      - SELECT id, name FROM lists WHERE owner_id = bucket.user_id"));

    private static ExpectedBuckets evaluate(Map<String, List<ObjectNode>> rows) {
        return new ReferenceEvaluator(RULES).evaluate(rows);
    }

    @Test
    void bucketsHoldTheirRowsSortedByTableThenId() {
        Map<String, List<ObjectNode>> rows = new LinkedHashMap<>();
        rows.put("public.todos", List.of(
            row("{'id': 't2', 'owner_id': 'u1', 'title': 'b'}"),
            row("{'id': 't1', 'owner_id': 'u1', 'title': 'a'}"),
            row("{'id': 't3', 'owner_id': 'u2', 'title': 'c'}")));
        rows.put("public.lists", List.of(row("{'id': 'l1', 'owner_id': 'u1', 'name': 'x'}")));

        ExpectedBuckets expected = evaluate(rows);

        assertThat(expected.buckets().keySet()).containsExactly("by_user[\"u1\"]", "by_user[\"u2\"]", "global[]");
        assertThat(expected.bucket("by_user[\"u1\"]").orElseThrow().rows())
            .extracting(r -> r.table() + "/" + r.id()).containsExactly("lists/l1", "todos/t1", "todos/t2");
        assertThat(expected.totalRows()).isEqualTo(5);
        assertThat(expected.errors()).isEmpty();
    }

    @Test
    void bucketChecksumIsTheSumOfItsPutChecksums() {
        ExpectedBuckets expected = evaluate(Map.of("public.todos", List.of(
            row("{'id': 't1', 'owner_id': 'u1', 'title': 'a'}"),
            row("{'id': 't2', 'owner_id': 'u1', 'title': 'b'}"))));

        ExpectedBucket bucket = expected.bucket("by_user[\"u1\"]").orElseThrow();

        assertThat(bucket.count()).isEqualTo(2);
        assertThat(bucket.checksum()).isEqualTo(Checksums.add(
            Checksums.put("todos", "t1", "{\"id\":\"t1\",\"title\":\"a\"}"),
            Checksums.put("todos", "t2", "{\"id\":\"t2\",\"title\":\"b\"}")));
    }

    @Test
    void resultDoesNotDependOnInputOrder() {
        ObjectNode a = row("{'id': 'l1', 'owner_id': 'u1', 'name': 'x'}");
        ObjectNode b = row("{'id': 'l2', 'owner_id': 'u1', 'name': 'y'}");

        assertThat(evaluate(Map.of("public.lists", List.of(a, b))))
            .isEqualTo(evaluate(Map.of("public.lists", List.of(b, a))));
    }

    @Test
    void sameIdFromTwoSourceTablesInOneBucketIsReportedAsACollision() {
        SyncRules rules = SyncRules.parse(yaml("bucket_definitions:", "  global:", "    data:",
            "      - SELECT * FROM \"tenant_%\".orders"));
        Map<String, List<ObjectNode>> rows = new LinkedHashMap<>();
        rows.put("tenant_1.orders", List.of(row("{'id': 1, 'v': 'first'}")));
        rows.put("tenant_2.orders", List.of(row("{'id': 1, 'v': 'second'}")));

        ExpectedBuckets expected = new ReferenceEvaluator(rules).evaluate(rows);

        assertThat(expected.bucket("global[]").orElseThrow().rows()).extracting(BucketRow::data)
            .containsExactly("{\"id\":1,\"v\":\"first\"}");
        assertThat(expected.errors()).singleElement()
            .satisfies(e -> assertThat(e.message()).contains("collides").contains("tenant_1.orders"));
    }

    @Test
    void rowErrorsAreCollected() {
        ExpectedBuckets expected = evaluate(Map.of("public.lists", List.of(row("{'id': null, 'name': 'x'}"))));

        assertThat(expected.buckets()).isEmpty();
        assertThat(expected.errors()).extracting(EvaluationError::message).containsExactly("id is null");
    }
}
