package io.tributary.source.encoding.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class PgArrayLiteralTest {

    @Test
    void unquotedElementsAndNulls() {
        assertThat(PgArrayLiteral.elements("{1,NULL,3}")).isEqualTo(Arrays.asList("1", null, "3"));
    }

    @Test
    void quotedElementsUnescapeBackslashes() {
        assertThat(PgArrayLiteral.elements("{\"a b\",\"c\\\"d\",\"e\\\\f\",\"NULL\"}"))
            .containsExactly("a b", "c\"d", "e\\f", "NULL");
    }

    @Test
    void emptyArrayHasNoElements() {
        assertThat(PgArrayLiteral.elements("{}")).isEmpty();
    }

    @Test
    void emptyQuotedStringIsAnElement() {
        assertThat(PgArrayLiteral.elements("{\"\",x}")).containsExactly("", "x");
    }

    @Test
    void boundsDecorationIsDropped() {
        assertThat(PgArrayLiteral.elements("[0:1]={7,8}")).containsExactly("7", "8");
    }

    @Test
    void multiDimensionalArraysAreRejected() {
        assertThatThrownBy(() -> PgArrayLiteral.elements("{{1,2},{3,4}}"))
            .isInstanceOf(UnencodableValueException.class).hasMessageContaining("multi-dimensional");
        assertThatThrownBy(() -> PgArrayLiteral.elements("[1:2][1:1]={{1},{2}}"))
            .isInstanceOf(UnencodableValueException.class).hasMessageContaining("multi-dimensional");
    }

    @Test
    void malformedTextIsRejected() {
        assertThatThrownBy(() -> PgArrayLiteral.elements("{1,2")).isInstanceOf(UnencodableValueException.class);
        assertThatThrownBy(() -> PgArrayLiteral.elements("{\"a}")).isInstanceOf(UnencodableValueException.class);
    }
}
