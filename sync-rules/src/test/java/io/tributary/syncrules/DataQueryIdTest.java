package io.tributary.syncrules;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DataQueryIdTest {

    private static List<DataQueryId> idsOf(String... queries) {
        StringBuilder yaml = new StringBuilder("bucket_definitions:\n  global:\n    data:\n");
        for (String query : queries) {
            yaml.append("      - ").append(query).append('\n');
        }
        return SyncRules.parse(yaml.toString()).dataQueryIds();
    }

    @Test
    void aColumnNamedIdIsReadFromThatColumnAtItsItem() {
        DataQueryId id = idsOf("SELECT name, id FROM lists").get(0);

        assertThat(id.query()).isEqualTo("global.data[0]");
        assertThat(id.sourceColumn()).contains("id");
        assertThat(id.line()).isEqualTo(4);
        assertThat(id.column()).isEqualTo(22);
    }

    @Test
    void anAliasedColumnIsReadFromTheColumnItNames() {
        DataQueryId id = idsOf("SELECT o.*, o.order_no AS id FROM \"tenant_%\".orders AS o").get(0);

        assertThat(id.sourceColumn()).contains("order_no");
        assertThat(id.column()).isEqualTo(21);
        assertThat(id.reads(new SourceTable("tenant_1", "orders"))).isTrue();
        assertThat(id.reads(new SourceTable("public", "orders"))).isFalse();
    }

    @Test
    void aStarWithoutAnExplicitIdReadsTheIdColumnAtTheStar() {
        DataQueryId id = idsOf("SELECT * FROM todos").get(0);

        assertThat(id.sourceColumn()).contains("id");
        assertThat(id.column()).isEqualTo(16);
        assertThat(id.reads(new SourceTable("public", "todos"))).isTrue();
    }

    @Test
    void aLiteralIdHasNoSourceColumn() {
        assertThat(idsOf("SELECT 'one' AS id, name FROM lists").get(0).sourceColumn()).isEqualTo(Optional.empty());
    }

    @Test
    void everyDataQueryIsListedInDocumentOrder() {
        assertThat(idsOf("SELECT * FROM a", "SELECT email AS id FROM b")).extracting(DataQueryId::query)
            .containsExactly("global.data[0]", "global.data[1]");
    }
}
