package io.tributary.source.encoding.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Expected values are what {@code String(x)} prints in Node.js for the same double. */
class JsNumbersTest {

    @ParameterizedTest
    @CsvSource({
        "1, 1",
        "0.1, 0.1",
        "-1.5, -1.5",
        "100, 100",
        "123.456, 123.456",
        "1e21, 1e+21",
        "1e20, 100000000000000000000",
        "1.2345678901234568e21, 1.2345678901234568e+21",
        "123456789012345680000, 123456789012345680000",
        "1.5e-7, 1.5e-7",
        "1e-6, 0.000001",
        "1e-7, 1e-7",
        "0.000123, 0.000123",
        "0.30000000000000004, 0.30000000000000004",
        "9007199254740992, 9007199254740992",
        "9007199254740993, 9007199254740992",
        "1.7976931348623157e308, 1.7976931348623157e+308",
        "2.2250738585072014e-308, 2.2250738585072014e-308",
        "1e-310, 1e-310",
        "4.9e-324, 5e-324",
        "-4.9e-324, -5e-324",
        "1e-323, 1e-323",
        "1.5e-323, 1.5e-323",
        "2.5e-323, 2.5e-323",
        "1e23, 1e+23",
        "2e-3, 0.002",
        "5e-7, 5e-7",
        "-1e100, -1e+100",
    })
    void doublesAreFormattedLikeJavaScript(double value, String expected) {
        assertThat(JsNumbers.format(value)).isEqualTo(expected);
    }

    @Test
    void negativeZeroIsZero() {
        assertThat(JsNumbers.format(-0.0)).isEqualTo("0");
        assertThat(JsNumbers.format(-0.0f)).isEqualTo("0");
    }

    @ParameterizedTest
    @CsvSource({
        "0.1, 0.1",
        "3.1, 3.1",
        "1, 1",
        "16777216, 16777216",
        "3.4028235e38, 3.4028235e+38",
        "1e-40, 1e-40",
        "1.4e-45, 1e-45",
        "2.8e-45, 3e-45",
        "1.17549435e-38, 1.1754944e-38",
        "0.3333333333, 0.33333334",
        "-2.5, -2.5",
    })
    void floatsUseTheirOwnShortestDigits(float value, String expected) {
        assertThat(JsNumbers.format(value)).isEqualTo(expected);
    }

    @Test
    void nonFiniteValuesAreRejected() {
        assertThatThrownBy(() -> JsNumbers.format(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> JsNumbers.format(Float.POSITIVE_INFINITY))
            .isInstanceOf(IllegalArgumentException.class);
    }
}
