package io.tributary.source.encoding.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class PgTemporalTextTest {

    @Test
    void dateIsReadAsEpochDay() {
        assertThat(PgTemporalText.date("2020-01-02")).isEqualTo(LocalDate.of(2020, 1, 2).toEpochDay());
    }

    @Test
    void infinitiesAreRecognized() {
        assertThat(PgTemporalText.date("infinity")).isEqualTo(ColumnTypeText.INFINITY);
        assertThat(PgTemporalText.timestamptz("-infinity")).isEqualTo(ColumnTypeText.MINUS_INFINITY);
    }

    @Test
    void timestampWithFractionIsReadAsMicros() {
        long expected = LocalDateTime.of(2020, 1, 2, 3, 4, 5).toEpochSecond(ZoneOffset.UTC) * 1_000_000 + 500_000;
        assertThat(PgTemporalText.timestamp("2020-01-02 03:04:05.5")).isEqualTo(expected);
    }

    @Test
    void timestamptzOffsetIsAppliedToReachUtc() {
        long utc = LocalDateTime.of(2020, 1, 2, 1, 4, 5).toEpochSecond(ZoneOffset.UTC) * 1_000_000 + 123_456;
        assertThat(PgTemporalText.timestamptz("2020-01-02 03:04:05.123456+02")).isEqualTo(utc);
        assertThat(PgTemporalText.timestamptz("2020-01-01 19:34:05.123456-05:30")).isEqualTo(utc);
    }

    @Test
    void timestamptzOffsetWithSecondsIsApplied() {
        assertThat(PgTemporalText.timestamptz("1970-01-01 00:00:00+00:00:30")).isEqualTo(-30_000_000L);
    }

    @Test
    void timeAllowsTwentyFourHundred() {
        assertThat(PgTemporalText.time("24:00:00")).isEqualTo(ColumnTypeText.MICROS_PER_DAY);
    }

    @Test
    void timetzIsNormalizedToUtcAndWrapsAroundMidnight() {
        assertThat(PgTemporalText.timetzUtc("03:04:05.5+05:30")).isEqualTo(77_645_500_000L);
        assertThat(PgTemporalText.timetzUtc("24:00:00+02")).isEqualTo(22 * ColumnTypeText.MICROS_PER_HOUR);
    }

    @Test
    void bcYearsAreReadAsIsoYears() {
        assertThat(PgTemporalText.date("0044-03-15 BC")).isEqualTo(LocalDate.of(-43, 3, 15).toEpochDay());
    }

    @Test
    void timestamptzPrintedAsBcInASessionZoneCanBeInRangeInUtc() {
        long utc = PgTemporalText.timestamptz("0001-12-31 20:29:08-03:30:52 BC");
        assertThat(ColumnTypeText.timestamptz(utc)).isEqualTo("0001-01-01T00:00:00.000000Z");
    }

    @Test
    void timestamptzPrintedInYearTenThousandCanBeInRangeInUtc() {
        long utc = PgTemporalText.timestamptz("10000-01-01 13:00:00+14");
        assertThat(ColumnTypeText.timestamptz(utc)).isEqualTo("9999-12-31T23:00:00.000000Z");
    }

    @Test
    void malformedTextIsRejected() {
        assertThatThrownBy(() -> PgTemporalText.timestamp("2020-01-02T03:04:05"))
            .isInstanceOf(UnencodableValueException.class);
    }
}
