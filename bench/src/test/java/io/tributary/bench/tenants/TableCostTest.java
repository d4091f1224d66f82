package io.tributary.bench.tenants;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tributary.bench.pipeline.SnapshotSeries;
import io.tributary.bench.probe.RoleCpu;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TableCostTest {

    @Test
    void theFixedCostIsTheExtraCpuOverTheExtraTablesWithoutTheJit() {
        MultiTenant.Shape base = new MultiTenant.Shape(1, 5, 200_000);
        MultiTenant.Shape many = new MultiTenant.Shape(200, 5, 200_000);
        SnapshotSeries.RunCpu baseCpu = new SnapshotSeries.RunCpu(Map.of(RoleRun.BROKER, 10.0, RoleRun.JIT, 5.0),
            1.0, 2.0);
        SnapshotSeries.RunCpu manyCpu = new SnapshotSeries.RunCpu(Map.of(RoleRun.BROKER, 12.0, RoleRun.JIT, 50.0),
            3.965, 4.0);

        // (12 + 3.965 + 4) - (10 + 1 + 2) = 6.965 s over 995 more tables
        assertThat(TableCost.millisPerTable(base, baseCpu, many, manyCpu)).isCloseTo(7.0, within(1e-9));
    }

    @Test
    void shapesOfAsManyTablesHaveNoFixedCost() {
        MultiTenant.Shape shape = new MultiTenant.Shape(2, 5, 1_000);
        SnapshotSeries.RunCpu cpu = new SnapshotSeries.RunCpu(Map.of(), 0, 0);

        assertThatThrownBy(() -> TableCost.millisPerTable(shape, cpu, new MultiTenant.Shape(5, 2, 1_000), cpu))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void schemaNamesHaveAtLeastThreeDigitsAndAsManyAsTheLargest() {
        assertThat(new MultiTenant.Shape(200, 5, 1_000).schemaName(7)).isEqualTo("tenant_007");
        assertThat(new MultiTenant.Shape(2000, 5, 10_000).schemaName(7)).isEqualTo("tenant_0007");
    }

    /** The roles by a shorter name. */
    private static final class RoleRun {
        static final RoleCpu.Role BROKER = RoleCpu.Role.BROKER;
        static final RoleCpu.Role JIT = RoleCpu.Role.JIT;
    }
}
