package io.tributary.snapshot.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.source.catalog.ColumnType;
import io.tributary.source.catalog.SourceColumn;
import io.tributary.source.catalog.TableSchema;
import io.tributary.topics.messages.ChunkRange;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.TableId;
import java.util.List;
import org.junit.jupiter.api.Test;

class RangeQueryTest {

    private static final TableSchema COMPOSITE = TableSchema.of(TableId.of("tenant \"a\"", "Orders"),
        List.of(SourceColumn.scalar("id", 1, ColumnType.INT4), SourceColumn.scalar("tenant", 2, ColumnType.TEXT),
            SourceColumn.scalar("total", 3, ColumnType.NUMERIC)),
        List.of("tenant", "id"));
    private static final TableSchema SINGLE = TableSchema.of(TableId.of("public", "items"),
        List.of(SourceColumn.scalar("id", 1, ColumnType.INT8)), List.of("id"));

    @Test
    void aCompositeRangeComparesRowsInKeyOrder() {
        RangeQuery query = RangeQuery.of(COMPOSITE, "\"id\", \"tenant\", \"total\"",
            ChunkRange.of(KeyValues.of("[\"a\",5]"), KeyValues.of("[\"b\",1]")));

        assertThat(query.sql()).isEqualTo("SELECT \"id\", \"tenant\", \"total\" FROM \"tenant \"\"a\"\"\".\"Orders\""
            + " WHERE (\"tenant\", \"id\") >= (?::text, ?::integer) AND (\"tenant\", \"id\") < (?::text, ?::integer)"
            + " ORDER BY \"tenant\", \"id\"");
        assertThat(query.parameters()).containsExactly("a", "5", "b", "1");
    }

    @Test
    void anUnboundedSideHasNoCondition() {
        RangeQuery query = RangeQuery.of(SINGLE, "\"id\"", ChunkRange.until(KeyValues.of("[100]")));

        assertThat(query.sql()).isEqualTo("SELECT \"id\" FROM \"public\".\"items\" WHERE \"id\" < ?::bigint"
            + " ORDER BY \"id\"");
        assertThat(query.parameters()).containsExactly("100");
    }

    @Test
    void theWholeTableHasNoWhereClause() {
        RangeQuery query = RangeQuery.of(SINGLE, "\"id\"", ChunkRange.all());

        assertThat(query.sql()).isEqualTo("SELECT \"id\" FROM \"public\".\"items\" ORDER BY \"id\"");
        assertThat(query.isWholeTable()).isTrue();
    }

    @Test
    void aBoundWithTheWrongArityIsRejected() {
        assertThatThrownBy(() -> RangeQuery.of(COMPOSITE, "*", ChunkRange.from(KeyValues.of("[\"a\"]"))))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 values");
    }
}
