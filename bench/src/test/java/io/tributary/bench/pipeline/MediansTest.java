package io.tributary.bench.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tributary.bench.pipeline.ResultTable.Row;
import java.util.List;
import org.junit.jupiter.api.Test;

class MediansTest {

    @Test
    void severalCompletedRunsReportTheRunOfMedianSecondsWithEveryRunNoted() {
        Row median = Medians.of(List.of(Row.ok("A", "w=1", 10, 3.0, "c"), Row.ok("A", "w=1", 10, 1.0, "a"),
            Row.ok("A", "w=1", 10, 2.0, "b")));

        assertEquals(2.0, median.seconds());
        assertEquals("median of 3 runs (3.00 / 1.00 / 2.00 s); b", median.notes());
    }

    @Test
    void anyFailedRunMakesTheRowThatFailure() {
        Row row = Medians.of(List.of(Row.ok("A", "w=1", 10, 1.0, ""), Row.failed("A", "w=1", 10, 9.0, "TIMEOUT")));

        assertEquals("TIMEOUT", row.outcome());
        assertEquals("1 of 2 runs failed", row.notes());
    }
}
