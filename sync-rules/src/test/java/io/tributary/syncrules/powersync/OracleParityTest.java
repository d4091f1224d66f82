package io.tributary.syncrules.powersync;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.syncrules.BucketRow;
import io.tributary.syncrules.EvaluationResult;
import io.tributary.syncrules.SyncRules;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Tributary's rules against PowerSync's evaluator on the same source rows: bucket ids and row ids must be equal.
 */
class OracleParityTest {

    private static final String RULES = String.join("\n",
        "bucket_definitions:",
        "  global:",
        "    data:",
        "      - SELECT id FROM items",
        "  by_owner:",
        "    parameters: SELECT request.user_id() AS owner",
        "    data:",
        "      - SELECT id FROM items WHERE owner = bucket.owner",
        "  by_name:",
        "    parameters: SELECT request.user_id() AS name",
        "    data:",
        "      - SELECT id FROM items WHERE name = bucket.name",
        "");

    @Test
    void bucketIdsAndRowIdsEqualPowerSyncs() {
        List<PgRow> rows = new ArrayList<>();
        for (PgValue value : ColumnCorpus.values()) {
            rows.add(new PgRow("public", "items", List.of(
                ColumnCorpus.value("id", 25, value.column(), "\"" + value.column() + "\""),
                ColumnCorpus.value("owner", 23, "12", "12"),
                ColumnCorpus.value("name", 25, "12", "\"12\""),
                value)));
        }
        List<PowerSyncOracle.Evaluation> expected = PowerSyncOracle.evaluate(RULES, rows);
        SyncRules rules = SyncRules.parse(RULES);
        for (int i = 0; i < rows.size(); i++) {
            EvaluationResult actual = rules.evaluate(rows.get(i).sourceTable(), rows.get(i).canonicalJson());
            assertThat(actual.rows().stream().map(r -> r.bucket() + " " + r.table() + " " + r.id()))
                .as("row %s", rows.get(i).canonicalJson())
                .containsExactlyElementsOf(expected.get(i).rows().stream()
                    .map(r -> r.bucket() + " " + r.table() + " " + r.id()).toList());
        }
        assertThat(expected.get(0).rows()).extracting(BucketRow::bucket)
            .containsExactly("global[]", "by_owner[12]", "by_name[\"12\"]");
    }
}
