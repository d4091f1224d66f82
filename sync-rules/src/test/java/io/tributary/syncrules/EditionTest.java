package io.tributary.syncrules;

import static io.tributary.syncrules.TestRows.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EditionTest {

    private static final String DEFINITIONS = yaml(
        "bucket_definitions:",
        "  global:",
        "    data:",
        "      - SELECT * FROM events");

    private static final String ROW =
        "{\"id\":\"e1\",\"at\":\"2024-01-02T01:04:05.120000Z\",\"t\":\"01:02:03.000000\"}";

    @Test
    void defaultEditionWritesTimestampsAsPowerSyncAlwaysHas() {
        SyncRules rules = SyncRules.parse(DEFINITIONS);

        assertThat(rules.edition()).isEqualTo(Edition.LEGACY);
        assertThat(rules.evaluate("public.events", ROW).rows()).extracting(BucketRow::data)
            .containsExactly("{\"id\":\"e1\",\"at\":\"2024-01-02 01:04:05.12Z\",\"t\":\"01:02:03\"}");
    }

    @Test
    void editionTwoWritesIso8601WithMicroseconds() {
        SyncRules rules = SyncRules.parse(DEFINITIONS + yaml("config:", "  edition: 2"));

        assertThat(rules.edition()).isEqualTo(Edition.ISO_8601);
        assertThat(rules.evaluate("public.events", ROW).rows()).extracting(BucketRow::data).containsExactly(ROW);
    }

    @Test
    void editionOneCanBeNamed() {
        assertThat(SyncRules.parse(DEFINITIONS + yaml("config:", "  edition: 1")).edition())
            .isEqualTo(Edition.LEGACY);
    }
}
