package io.tributary.syncrules;

import static io.tributary.syncrules.TestRows.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.testing.random.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Properties over random rows; the seed is in the assertion description. */
class EvaluationPropertiesTest {

    private static ObjectNode randomRow(Random random, int id) {
        ObjectNode row = JsonNodeFactory.instance.objectNode();
        row.put("id", id);
        String[] owners = {"u1", "u2", "u3"};
        if (random.nextInt(5) > 0) {
            row.put("owner", owners[random.nextInt(owners.length)]);
        } else {
            row.putNull("owner");
        }
        row.put("assignee", owners[random.nextInt(owners.length)]);
        if (random.nextBoolean()) {
            row.put("n", random.nextInt(10));
        } else if (random.nextBoolean()) {
            row.put("n", "text");
        }
        return row;
    }

    @Test
    void generalAndSingleBindingPlansAgree() {
        SyncRules simple = SyncRules.parse(yaml(
            "bucket_definitions:",
            "  d:",
            "    parameters: SELECT request.user_id() AS u",
            "    data:",
            "      - SELECT * FROM t WHERE owner = bucket.u AND n >= 3 AND n <> 7"));
        SyncRules general = SyncRules.parse(yaml(
            "bucket_definitions:",
            "  d:",
            "    parameters: SELECT request.user_id() AS u",
            "    data:",
            "      - SELECT * FROM t WHERE (owner = bucket.u AND n >= 3)",
            "          AND (NOT n = 7 OR owner = bucket.u AND n <> 7)"));
        long seed = Seeds.fromProperty("tributary.seed");
        Random random = new Random(seed);
        for (int i = 0; i < 5000; i++) {
            ObjectNode row = randomRow(random, i);
            assertThat(general.evaluate("public.t", row)).as("seed %d, row %s", seed, row)
                .isEqualTo(simple.evaluate("public.t", row));
        }
    }

    @Test
    void orOfTwoBindingsIsTheUnionOfTwoQueries() {
        SyncRules or = SyncRules.parse(yaml(
            "bucket_definitions:",
            "  d:",
            "    parameters: SELECT request.user_id() AS u",
            "    data:",
            "      - SELECT * FROM t WHERE owner = bucket.u OR assignee = bucket.u AND n > 4"));
        SyncRules two = SyncRules.parse(yaml(
            "bucket_definitions:",
            "  d:",
            "    parameters: SELECT request.user_id() AS u",
            "    data:",
            "      - SELECT * FROM t WHERE owner = bucket.u",
            "      - SELECT * FROM t WHERE assignee = bucket.u AND n > 4"));
        long seed = Seeds.fromProperty("tributary.seed");
        Random random = new Random(seed);
        for (int i = 0; i < 5000; i++) {
            ObjectNode row = randomRow(random, i);
            assertThat(or.evaluate("public.t", row).rows()).as("seed %d, row %s", seed, row)
                .containsExactlyInAnyOrderElementsOf(two.evaluate("public.t", row).rows());
        }
    }

    @Test
    void concurrentEvaluationGivesTheSameResultsAsSequential() throws Exception {
        SyncRules rules = SyncRules.parse(yaml(
            "bucket_definitions:",
            "  d:",
            "    parameters: SELECT request.user_id() AS u",
            "    data:",
            "      - SELECT * FROM \"s%\".t WHERE owner = bucket.u OR assignee = bucket.u"));
        Random random = new Random(7);
        List<ObjectNode> rows = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            rows.add(randomRow(random, i));
        }
        List<EvaluationResult> sequential = rows.stream().map(r -> rules.evaluate("s" + r.get("id").intValue() % 50
            + ".t", r)).toList();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<List<EvaluationResult>>> futures = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                futures.add(pool.submit(() -> rows.stream().map(r -> rules.evaluate("s" + r.get("id").intValue() % 50
                    + ".t", r)).toList()));
            }
            for (Future<List<EvaluationResult>> future : futures) {
                assertThat(future.get()).isEqualTo(sequential);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
