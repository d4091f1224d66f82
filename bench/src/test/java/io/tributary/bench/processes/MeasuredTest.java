package io.tributary.bench.processes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tributary.bench.model.CapacityModel;
import io.tributary.bench.probe.CpuUse;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MeasuredTest {

    private static MultiProcess.Measured measured() {
        Map<String, CpuUse> processes = new LinkedHashMap<>();
        processes.put("ingest", new CpuUse(3, 1, 0));
        processes.put("replication:snapshot", new CpuUse(4, 2, 0));
        processes.put("replication:streaming", new CpuUse(6, 1, 0));
        processes.put("storage", new CpuUse(7, 2, 0));
        processes.put("api", new CpuUse(1, 0.5, 0));
        return new MultiProcess.Measured(100_000, 20, processes, 5, 1, 3);
    }

    @Test
    void theModelGetsEveryReplicationRoleOutsideTheJitAndNotTheApi() {
        assertThat(measured().costs()).extracting(CapacityModel.RoleCost::role).containsExactly("ingest/planner",
            "snapshot-workers", "stream-workers", "storage-writer", "Kafka broker", "source Postgres",
            "storage Postgres");
        CapacityModel.RoleCost streams = measured().costs().get(2);
        assertThat(streams.microsPerRow()).isCloseTo(50, within(1e-9)); // (6 - 1) s over 100,000 rows
        assertThat(streams.scalesOut()).isTrue();
        assertThat(streams.partitioned()).isTrue();
        assertThat(measured().costs().get(0).scalesOut()).isFalse();
        assertThat(measured().costs().get(6).scalesOut()).isFalse();
    }

    @Test
    void theTotalSumsTheModelsRoles() {
        // ingest 20, snapshot 20, streams 50, writers 50, broker 50, source 10, storage 30
        assertThat(measured().totalMicros()).isCloseTo(230, within(1e-9));
        assertThat(measured().notes()).contains("total 230.0 us/row").contains("api 5.0 (JIT 5.0)");
    }
}
