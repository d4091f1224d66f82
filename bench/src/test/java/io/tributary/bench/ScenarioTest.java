package io.tributary.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScenarioTest {

    @Test
    void onlyAcceptsLettersAndNamesInAnyCase() {
        assertEquals(EnumSet.of(Scenario.SNAPSHOT, Scenario.BLOATED, Scenario.DEBEZIUM),
            Scenario.select(List.of("A", "bloated", "dbz"), false, false));
    }

    @Test
    void skipFlagsRemoveReplayAndStreamingFromTheDefaultOfEverything() {
        EnumSet<Scenario> expected = EnumSet.allOf(Scenario.class);
        expected.removeAll(List.of(Scenario.REPLAY, Scenario.CATCH_UP, Scenario.STREAMING));

        assertEquals(expected, Scenario.select(List.of(), true, true));
    }

    @Test
    void theTpcbScenarioIsSelectedByLetterOrName() {
        assertEquals(EnumSet.of(Scenario.TPCB), Scenario.select(List.of("T"), false, false));
        assertEquals(EnumSet.of(Scenario.TPCB, Scenario.STREAMING),
            Scenario.select(List.of("tpcb", "S"), false, false));
    }

    @Test
    void anUnknownScenarioIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> Scenario.select(List.of("Q"), false, false));
    }

    @Test
    void theRolesAsProcessesAreSelectedByLetterOrName() {
        assertEquals(EnumSet.of(Scenario.PROCESSES), Scenario.select(List.of("P"), false, false));
        assertEquals(EnumSet.of(Scenario.PROCESSES), Scenario.select(List.of("processes"), false, false));
    }
}
