package io.tributary.syncrules.internals.eval;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

class RowJsonParserTest {

    @Test
    void aRowWithAFiftyMegabyteTextIsParsed() {
        String body = "x".repeat(50 * 1024 * 1024);

        ObjectNode row = RowJsonParser.parseObject("{\"id\":1,\"body\":\"" + body + "\"}");

        assertThat(row.get("body").textValue()).hasSize(body.length());
    }

    @Test
    void aNumericOfAHundredThousandDigitsKeepsEveryDigit() {
        String digits = "9".repeat(100_000) + ".50";

        ObjectNode row = RowJsonParser.parseObject("{\"id\":1,\"amount\":" + digits + "}");

        assertThat(row.get("amount").decimalValue().toPlainString()).isEqualTo(digits);
    }
}
