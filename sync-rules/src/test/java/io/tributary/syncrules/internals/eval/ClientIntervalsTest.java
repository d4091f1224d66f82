package io.tributary.syncrules.internals.eval;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ClientIntervalsTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "P1Y2M-3DT4H5M6.78S | 1 year 2 mons -3 days +04:05:06.78",
        "P0Y0M0DT0H0M0S | 00:00:00",
        "P0Y0M1DT0H0M0S | 1 day",
        "P-1Y0M0DT0H0M0S | -1 years",
        "P0Y0M0DT-1H-2M-3.5S | -01:02:03.5",
        "P0Y0M2DT100H0M0.000001S | 2 days 100:00:00.000001",
        "P0Y1M0DT0H0M-0.5S | 1 mon -00:00:00.5"})
    void canonicalIntervalsArePostgresText(String canonical, String expected) {
        assertThat(ClientIntervals.clientText(canonical)).contains(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"P1Y", "PT4H", "P1Y2M3D", "Plain", "P1Y2M-3DT4H5M6.78"})
    void otherTextsAreNotIntervals(String text) {
        assertThat(ClientIntervals.clientText(text)).isEmpty();
    }
}
