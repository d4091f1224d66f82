package io.tributary.source.encoding.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ColumnTypeTextTest {

    @ParameterizedTest
    @CsvSource({
        "1.50, 1.50",
        "-0.001, -0.001",
        "12345678901234567890.123456789, 12345678901234567890.123456789",
        "1E-7, 0.0000001",
        "1E+40, 10000000000000000000000000000000000000000",
        "0, 0",
        "0.00, 0.00",
        "NaN, NaN",
        "Infinity, Infinity",
        "-Infinity, -Infinity",
    })
    void numericKeepsPostgresPlainTextAndScale(String text, String expected) {
        assertThat(ColumnTypeText.numeric(text)).isEqualTo(expected);
    }

    @Test
    void numericOfBigDecimalWithNegativeScaleIsPlain() {
        assertThat(ColumnTypeText.numeric(new BigDecimal("1.2E+3"))).isEqualTo("1200");
    }

    @Test
    void malformedNumericIsRejected() {
        assertThatThrownBy(() -> ColumnTypeText.numeric("1.2.3x")).isInstanceOf(UnencodableValueException.class);
    }

    @Test
    void byteaIsBackslashXLowerCaseHex() {
        assertThat(ColumnTypeText.bytea(new byte[] {0, (byte) 0xff, 0x1a})).isEqualTo("\\x00ff1a");
        assertThat(ColumnTypeText.bytea(new byte[0])).isEqualTo("\\x");
    }

    @Test
    void byteaOfBufferReadsRemainingBytesWithoutConsumingThem() {
        ByteBuffer buffer = ByteBuffer.wrap(new byte[] {1, 2, 3});
        buffer.position(1);
        assertThat(ColumnTypeText.bytea(buffer)).isEqualTo("\\x0203");
        assertThat(buffer.position()).isEqualTo(1);
    }

    @Test
    void uuidIsLowerCase() {
        assertThat(ColumnTypeText.uuid("A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11"))
            .isEqualTo("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
    }

    @Test
    void dateIsIsoWithFourDigitYear() {
        assertThat(ColumnTypeText.date(LocalDate.of(1, 1, 1).toEpochDay())).isEqualTo("0001-01-01");
        assertThat(ColumnTypeText.date(LocalDate.of(9999, 12, 31).toEpochDay())).isEqualTo("9999-12-31");
        assertThat(ColumnTypeText.date(0)).isEqualTo("1970-01-01");
    }

    @Test
    void infinitiesAreSpelledLikePostgres() {
        assertThat(ColumnTypeText.date(ColumnTypeText.INFINITY)).isEqualTo("infinity");
        assertThat(ColumnTypeText.timestamp(ColumnTypeText.MINUS_INFINITY)).isEqualTo("-infinity");
        assertThat(ColumnTypeText.timestamptz(ColumnTypeText.INFINITY)).isEqualTo("infinity");
    }

    @Test
    void yearsOutsideOneToNineThousandNineHundredNinetyNineAreRejected() {
        long year10000 = LocalDate.of(10000, 1, 1).toEpochDay();
        long bc = LocalDate.of(0, 12, 31).toEpochDay();
        assertThatThrownBy(() -> ColumnTypeText.date(year10000)).isInstanceOf(UnencodableValueException.class)
            .hasMessageContaining("0001-9999");
        assertThatThrownBy(() -> ColumnTypeText.timestamp(bc * ColumnTypeText.MICROS_PER_DAY))
            .isInstanceOf(UnencodableValueException.class);
    }

    @Test
    void timestampAlwaysHasSixFractionDigits() {
        long micros = LocalDateTime.of(2020, 1, 2, 3, 4, 5).toEpochSecond(ZoneOffset.UTC) * 1_000_000 + 120;
        assertThat(ColumnTypeText.timestamp(micros)).isEqualTo("2020-01-02T03:04:05.000120");
        assertThat(ColumnTypeText.timestamp(0)).isEqualTo("1970-01-01T00:00:00.000000");
    }

    @Test
    void timestampBeforeTheEpochCountsBackwards() {
        assertThat(ColumnTypeText.timestamp(-1)).isEqualTo("1969-12-31T23:59:59.999999");
    }

    @Test
    void timestamptzIsUtcWithZ() {
        assertThat(ColumnTypeText.timestamptz(1_500_000)).isEqualTo("1970-01-01T00:00:01.500000Z");
    }

    @Test
    void timeAllowsTheEndOfDay() {
        assertThat(ColumnTypeText.time(0)).isEqualTo("00:00:00.000000");
        assertThat(ColumnTypeText.time(ColumnTypeText.MICROS_PER_DAY)).isEqualTo("24:00:00.000000");
        assertThat(ColumnTypeText.time(3_723_250_000L)).isEqualTo("01:02:03.250000");
    }

    @Test
    void timetzIsUtcTimeOfDayWithZ() {
        assertThat(ColumnTypeText.timetz(77_645_500_000L)).isEqualTo("21:34:05.500000Z");
    }

    @ParameterizedTest
    @CsvSource({
        "14, -3, 14706780000, P1Y2M-3DT4H5M6.78S",
        "0, 0, 0, P0Y0M0DT0H0M0S",
        "-14, 3, -14706000001, P-1Y-2M3DT-4H-5M-6.000001S",
        "-10, 0, -500000, P0Y-10M0DT0H0M-0.5S",
        "0, 0, 3600000000000000, P0Y0M0DT1000000H0M0S",
        "0, 1, 1, P0Y0M1DT0H0M0.000001S",
    })
    void intervalIsTheIsoFormDebeziumPrints(int months, int days, long micros, String expected) {
        assertThat(ColumnTypeText.interval(months, days, micros)).isEqualTo(expected);
    }
}
