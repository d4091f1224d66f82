package io.tributary.syncrules;

import static io.tributary.syncrules.TestRows.row;
import static io.tributary.syncrules.TestRows.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** WHERE conditions with literals: SQL semantics where UNKNOWN (nulls, mismatched kinds) never selects. */
class FilterTest {

    private static boolean selects(String where, String rowJson) {
        SyncRules rules = SyncRules.parse(yaml(
            "bucket_definitions:",
            "  global:",
            "    data:",
            "      - SELECT * FROM t WHERE " + where));
        return !rules.evaluate("public.t", row(rowJson)).rows().isEmpty();
    }

    @Test
    void stringEqualityIsExact() {
        assertThat(selects("status = 'open'", "{'id': 1, 'status': 'open'}")).isTrue();
        assertThat(selects("status = 'open'", "{'id': 1, 'status': 'Open'}")).isFalse();
    }

    @Test
    void numbersCompareNumericallyAcrossRepresentations() {
        assertThat(selects("price = 5", "{'id': 1, 'price': 5.0}")).isTrue();
        assertThat(selects("price < 5.5", "{'id': 1, 'price': 5}")).isTrue();
        assertThat(selects("price >= 10000000000", "{'id': 1, 'price': 10000000000}")).isTrue();
        assertThat(selects("price > -1", "{'id': 1, 'price': -0.5}")).isTrue();
        assertThat(selects("price <= -1", "{'id': 1, 'price': -0.5}")).isFalse();
    }

    @Test
    void everyComparisonOperatorIsSupported() {
        String row = "{'id': 1, 'n': 3}";
        assertThat(selects("n = 3", row)).isTrue();
        assertThat(selects("n <> 3", row)).isFalse();
        assertThat(selects("n != 4", row)).isTrue();
        assertThat(selects("n < 3", row)).isFalse();
        assertThat(selects("n <= 3", row)).isTrue();
        assertThat(selects("n > 2", row)).isTrue();
        assertThat(selects("n >= 4", row)).isFalse();
    }

    @Test
    void literalOnTheLeftIsMirrored() {
        assertThat(selects("3 < n", "{'id': 1, 'n': 4}")).isTrue();
        assertThat(selects("3 < n", "{'id': 1, 'n': 3}")).isFalse();
    }

    @Test
    void stringsOrderByCodePoint() {
        assertThat(selects("name < 'b'", "{'id': 1, 'name': 'abc'}")).isTrue();
        assertThat(selects("name < 'b'", "{'id': 1, 'name': 'B'}")).isTrue();
        assertThat(selects("name > 'b'", "{'id': 1, 'name': 'é'}")).isTrue();
    }

    @Test
    void comparingDifferentKindsIsNeverTrue() {
        assertThat(selects("n = '3'", "{'id': 1, 'n': 3}")).isFalse();
        assertThat(selects("n <> '3'", "{'id': 1, 'n': 3}")).isFalse();
        assertThat(selects("flag = 1", "{'id': 1, 'flag': true}")).isFalse();
    }

    @Test
    void booleansCompareWithTrueAndFalse() {
        assertThat(selects("archived = false", "{'id': 1, 'archived': false}")).isTrue();
        assertThat(selects("archived = TRUE", "{'id': 1, 'archived': false}")).isFalse();
    }

    @Test
    void comparisonWithNullIsNeverTrue() {
        assertThat(selects("n = NULL", "{'id': 1, 'n': null}")).isFalse();
        assertThat(selects("n <> 3", "{'id': 1, 'n': null}")).isFalse();
        assertThat(selects("n <> 3", "{'id': 1}")).isFalse();
    }

    @Test
    void isNullMatchesNullAndMissingColumns() {
        assertThat(selects("deleted_at IS NULL", "{'id': 1, 'deleted_at': null}")).isTrue();
        assertThat(selects("deleted_at IS NULL", "{'id': 1}")).isTrue();
        assertThat(selects("deleted_at IS NULL", "{'id': 1, 'deleted_at': '2024-01-01'}")).isFalse();
        assertThat(selects("deleted_at IS NOT NULL", "{'id': 1, 'deleted_at': '2024-01-01'}")).isTrue();
    }

    @Test
    void notOfAnUnknownComparisonIsStillNotTrue() {
        assertThat(selects("NOT (n = 3)", "{'id': 1, 'n': null}")).isFalse();
        assertThat(selects("NOT (n = 3)", "{'id': 1, 'n': 4}")).isTrue();
        assertThat(selects("NOT (n < 3 OR n IS NULL)", "{'id': 1, 'n': 5}")).isTrue();
        assertThat(selects("NOT (n < 3 AND s = 'x')", "{'id': 1, 'n': 1, 's': null}")).isFalse();
        assertThat(selects("NOT deleted_at IS NULL", "{'id': 1, 'deleted_at': 'x'}")).isTrue();
    }

    @Test
    void inListMatchesAnyValueAndNotInNone() {
        assertThat(selects("status IN ('open', 'waiting')", "{'id': 1, 'status': 'waiting'}")).isTrue();
        assertThat(selects("status IN ('open', 'waiting')", "{'id': 1, 'status': 'done'}")).isFalse();
        assertThat(selects("status NOT IN ('open', 'waiting')", "{'id': 1, 'status': 'done'}")).isTrue();
        assertThat(selects("status NOT IN ('open', 'waiting')", "{'id': 1, 'status': null}")).isFalse();
    }

    @Test
    void andOrFollowSqlPrecedence() {
        assertThat(selects("a = 1 OR b = 1 AND c = 1", "{'id': 1, 'a': 1, 'b': 0, 'c': 0}")).isTrue();
        assertThat(selects("(a = 1 OR b = 1) AND c = 1", "{'id': 1, 'a': 1, 'b': 0, 'c': 0}")).isFalse();
    }

    @Test
    void columnsCanBeComparedWithColumns() {
        assertThat(selects("updated_at > created_at", "{'id': 1, 'created_at': 'a', 'updated_at': 'b'}")).isTrue();
    }

    @Test
    void quotedColumnKeepsItsCaseAndUnquotedFolds() {
        assertThat(selects("\"listId\" = 'l1'", "{'id': 1, 'listId': 'l1'}")).isTrue();
        assertThat(selects("LISTID = 'l1'", "{'id': 1, 'listId': 'l1', 'listid': 'x'}")).isFalse();
        assertThat(selects("STATUS = 'x'", "{'id': 1, 'status': 'x'}")).isTrue();
    }

    @Test
    void qualifiedColumnsUseTheTableNameOrAlias() {
        assertThat(selects("t.n = 1", "{'id': 1, 'n': 1}")).isTrue();
    }

    @Test
    void constantConditionsAreAccepted() {
        assertThat(selects("TRUE", "{'id': 1}")).isTrue();
        assertThat(selects("NOT TRUE", "{'id': 1}")).isFalse();
        assertThat(selects("NULL", "{'id': 1}")).isFalse();
    }
}
