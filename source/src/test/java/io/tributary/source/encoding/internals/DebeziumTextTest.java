package io.tributary.source.encoding.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Expected inputs are strings observed from Debezium 3.6.1's Postgres connector. */
class DebeziumTextTest {

    @ParameterizedTest
    @CsvSource({
        "P1Y2M-3DT4H5M6.78S, P1Y2M-3DT4H5M6.78S",
        "P-1Y-2M3DT-4H-5M-6.000001S, P-1Y-2M3DT-4H-5M-6.000001S",
        "P0Y0M0DT0H0M0S, P0Y0M0DT0H0M0S",
        "P0Y14M0DT0H0M0S, P1Y2M0DT0H0M0S",
        "P0Y0M0DT0H0M1.0000009999999S, P0Y0M0DT0H0M1.000001S",
    })
    void intervalIsNormalizedToTheCanonicalForm(String debezium, String canonical) {
        assertThat(DebeziumText.interval(debezium)).isEqualTo(canonical);
    }

    @Test
    void zonedTimestampWithAnyFractionIsReadToTheMicrosecond() {
        assertThat(DebeziumText.zonedTimestamp("1970-01-01T00:00:01.5Z")).isEqualTo(1_500_000L);
        assertThat(DebeziumText.zonedTimestamp("1970-01-01T00:00:00Z")).isZero();
        assertThat(DebeziumText.zonedTimestamp("2020-01-02T01:04:05.123456Z"))
            .isEqualTo(LocalDate.of(2020, 1, 2).toEpochDay() * ColumnTypeText.MICROS_PER_DAY + 3_845_123_456L);
    }

    @Test
    void zonedTimestampInfinitiesAreRecognized() {
        assertThat(DebeziumText.zonedTimestamp("infinity")).isEqualTo(ColumnTypeText.INFINITY);
        assertThat(DebeziumText.zonedTimestamp("-infinity")).isEqualTo(ColumnTypeText.MINUS_INFINITY);
    }

    @Test
    void zonedTimestampOutsideYearsOneToNineThousandNineHundredNinetyNineIsRejected() {
        assertThatThrownBy(() -> DebeziumText.zonedTimestamp("+10000-01-01T00:00:00.000000Z"))
            .isInstanceOf(UnencodableValueException.class);
        assertThatThrownBy(() -> DebeziumText.zonedTimestamp("-0043-03-15T12:00:00.000000Z"))
            .isInstanceOf(UnencodableValueException.class);
    }

    @Test
    void zonedTimeIsUtcMicrosOfDay() {
        assertThat(DebeziumText.zonedTimeUtc("21:34:05.5Z")).isEqualTo(77_645_500_000L);
    }

    @Test
    void dateInfinitySentinelsAreTheDaysDebeziumEmits() {
        assertThat(DebeziumValues.DATE_INFINITY_DAYS).isEqualTo(-2147472692L);
        assertThat(DebeziumValues.DATE_MINUS_INFINITY_DAYS).isEqualTo(-2147472691L);
    }
}
