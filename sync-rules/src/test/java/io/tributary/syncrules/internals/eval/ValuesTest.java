package io.tributary.syncrules.internals.eval;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.math.BigDecimal;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class ValuesTest {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    @Test
    void numbersCompareAcrossRepresentations() {
        assertThat(Values.compare(NODES.numberNode(1), NODES.numberNode(new BigDecimal("1.00")))).isZero();
        assertThat(Values.compare(NODES.numberNode(new BigInteger("99999999999999999999")), NODES.numberNode(1L)))
            .isPositive();
        assertThat(Values.compare(NODES.numberNode(0.1), NODES.numberNode(new BigDecimal("0.1")))).isZero();
    }

    @Test
    void nonFiniteDoublesAreIncomparable() {
        assertThat(Values.compare(NODES.numberNode(Double.NaN), NODES.numberNode(1))).isEqualTo(Values.INCOMPARABLE);
    }

    @Test
    void containersAreIncomparable() {
        assertThat(Values.compare(NODES.arrayNode(), NODES.arrayNode())).isEqualTo(Values.INCOMPARABLE);
    }

    @Test
    void parameterTextIsPowerSyncsBucketNameText() {
        assertThat(Values.parameterText(NODES.textNode("a\"b"))).contains("\"a\\\"b\"");
        assertThat(Values.parameterText(NODES.numberNode(42))).contains("42");
        assertThat(Values.parameterText(NODES.booleanNode(true))).contains("1");
        assertThat(Values.parameterText(NODES.booleanNode(false))).contains("0");
        assertThat(Values.parameterText(NODES.numberNode(new java.math.BigDecimal("3.0")))).contains("3");
        assertThat(Values.parameterText(NODES.numberNode(new java.math.BigDecimal("2.5")))).contains("2.5");
        assertThat(Values.parameterText(NODES.nullNode())).isEmpty();
        assertThat(Values.parameterText(NODES.objectNode())).isEmpty();
    }
}
