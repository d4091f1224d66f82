package io.tributary.topics.messages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TableIdTest {

    @Test
    void toStringJoinsSchemaAndNameWithADot() {
        assertThat(TableId.of("public", "Orders")).hasToString("public.Orders");
    }

    @Test
    void quotedDoublesEmbeddedQuotesAndKeepsDots() {
        assertThat(TableId.of("tenant.1", "my \"odd\" table").quoted())
            .isEqualTo("\"tenant.1\".\"my \"\"odd\"\" table\"");
    }

    @Test
    void partsAreCaseSensitive() {
        assertThat(TableId.of("public", "orders")).isNotEqualTo(TableId.of("public", "Orders"));
    }

    @Test
    void emptyPartsAreRejected() {
        assertThatThrownBy(() -> TableId.of("", "orders")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TableId.of("public", "")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void ordersBySchemaThenName() {
        assertThat(TableId.of("a", "z")).isLessThan(TableId.of("b", "a"));
        assertThat(TableId.of("a", "a")).isLessThan(TableId.of("a", "b"));
    }
}
