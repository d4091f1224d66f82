package io.tributary.syncrules.internals.eval;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.syncrules.Edition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ClientTemporalsTest {

    @ParameterizedTest
    @CsvSource({
        "2024-01-02T01:04:05.123000Z, 2024-01-02 01:04:05.123Z",
        "2024-01-02T01:04:05.000000Z, 2024-01-02 01:04:05Z",
        "2024-01-02T01:04:05.123456, 2024-01-02 01:04:05.123456",
        "2024-01-02T01:04:05.000000, 2024-01-02 01:04:05",
        "01:04:05.500000, 01:04:05.5",
        "24:00:00.000000, 24:00:00",
        "01:04:05.500000Z, 01:04:05.5+00"})
    void legacyEditionWritesPostgresText(String canonical, String expected) {
        assertThat(ClientTemporals.clientText(canonical, Edition.LEGACY)).contains(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"2024-01-02T01:04:05.123000Z", "2024-01-02T01:04:05.000000", "01:04:05.500000"})
    void isoEditionKeepsTheCanonicalForm(String canonical) {
        assertThat(ClientTemporals.clientText(canonical, Edition.ISO_8601)).contains(canonical);
    }

    @Test
    void timeWithTimeZoneIsPostgresTextInUtcInBothEditions() {
        assertThat(ClientTemporals.clientText("01:04:05.000000Z", Edition.ISO_8601)).contains("01:04:05+00");
    }

    @ParameterizedTest
    @ValueSource(strings = {"2024-01-02 01:04:05.123000Z", "2024-01-02T01:04:05.123Z", "2024-01-02T01:04:05.123000+",
        "01:04:05.5", "01:04:05.500000+", "2024-01-02", "infinity", "", "x1:04:05.500000"})
    void otherTextsAreNotTemporal(String text) {
        assertThat(ClientTemporals.clientText(text, Edition.LEGACY)).isEmpty();
    }
}
