package io.tributary.syncrules.internals.eval;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ClientNumbersTest {

    @ParameterizedTest
    @CsvSource({
        "3, 3.0", "3.0, 3.0", "0, 0.0", "-2, -2.0", "2.5, 2.5", "-0.5, -0.5", "1e21, 1e+21", "1.5e-7, 1.5e-7",
        "1e20, 100000000000000000000.0", "0.000001, 0.000001", "1.7976931348623157E308, 1.7976931348623157e+308",
        "5e-324, 5e-324", "123456.789, 123456.789"})
    void realsAreWrittenAsPowerSyncWritesThem(String decimal, String expected) {
        StringBuilder out = new StringBuilder();
        ClientNumbers.appendReal(new BigDecimal(decimal), out);
        assertThat(out).hasToString(expected);
    }

    @ParameterizedTest
    @CsvSource({"3.0, 3", "2.5, 2.5", "1e21, 1e+21", "0.0, 0"})
    void javaScriptTextHasNoRealSuffix(String decimal, String expected) {
        StringBuilder out = new StringBuilder();
        ClientNumbers.appendJs(new BigDecimal(decimal), out);
        assertThat(out).hasToString(expected);
    }
}
