package io.tributary.bench.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tributary.bench.probe.CpuUse;
import io.tributary.bench.probe.PeakRss;
import org.junit.jupiter.api.Test;

class ResultTableTest {

    @Test
    void ratesAreRelativeToTheBaselineAndFailuresShowTheirOutcome() {
        ResultTable table = new ResultTable();
        table.addBaseline(ResultTable.Row.ok("B1", "keyset", 1_000, 2.0, ""));
        table.add(ResultTable.Row.ok("A", "w=2", 1_000, 0.5, "x")
            .withUsage(new PeakRss(2048, 1024), new CpuUse(0.2, 0.05, 0.1)));
        table.add(ResultTable.Row.failed("A", "w=4", 0, 300.0, "TIMEOUT"));

        assertEquals(String.join("\n",
            "| scenario | configuration | rows | seconds | rows/s | vs baseline | peak RSS MiB (JVM / PG) "
                + "| CPU us/row (JVM (JIT) / PG) | notes |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
            "| B1 | keyset | 1,000 | 2.00 | 500 | 1.00x | - | - |  |",
            "| A | w=2 | 1,000 | 0.50 | 2,000 | 4.00x | 2 / 1 | 200 (JIT 50) / 100 | x |",
            "| A | w=4 | 0 | 300.00 | TIMEOUT | - | - | - |  |",
            ""), table.markdown());
    }
}
