package io.tributary.ingest.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.topics.messages.TableId;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class PlannerWindowMarkersTest {

    @Test
    void markerContentIsCompactJsonWithSchemaTableAndWindow() {
        assertThat(WindowMarkers.content(TableId.of("tenant_a", "orders"), "w1"))
            .isEqualTo("{\"schema\":\"tenant_a\",\"table\":\"orders\",\"window_id\":\"w1\"}");
    }

    @Test
    void theMarkerOfAWindowReplacingTheTableRowsSaysSo() {
        assertThat(WindowMarkers.content(TableId.of("tenant_a", "orders"), "w2", true))
            .isEqualTo("{\"schema\":\"tenant_a\",\"table\":\"orders\",\"window_id\":\"w2\",\"replaces\":true}");
    }

    @Test
    void namesAreEscaped() {
        assertThat(WindowMarkers.content(TableId.of("My \"Schema\"", "a\\b"), "w1"))
            .isEqualTo("{\"schema\":\"My \\\"Schema\\\"\",\"table\":\"a\\\\b\",\"window_id\":\"w1\"}");
    }

    @Test
    void windowIdsSortByCreationAndNeverRepeat() {
        String earlier = WindowIds.next(Instant.parse("2026-01-31T12:00:00.123Z"));
        String later = WindowIds.next(Instant.parse("2026-01-31T12:00:01Z"));

        assertThat(earlier).startsWith("20260131T120000123Z-").isLessThan(later);
        assertThat(WindowIds.next(Instant.EPOCH)).isNotEqualTo(WindowIds.next(Instant.EPOCH));
        assertThat(WindowIds.chunkId(earlier, 7)).isEqualTo(earlier + "#7");
    }
}
