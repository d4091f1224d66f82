package io.tributary.bench.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tributary.bench.model.CapacityModel.Plan;
import io.tributary.bench.model.CapacityModel.RoleCost;
import java.util.List;
import org.junit.jupiter.api.Test;

class CapacityModelTest {

    private static final List<RoleCost> COSTS = List.of(
        new RoleCost("snapshot-workers", 36, true, false),
        new RoleCost("stream-workers", 72, true, true),
        new RoleCost("source Postgres", 10, false, false),
        new RoleCost("storage Postgres", 50, false, false));

    @Test
    void coresAreTheRateTimesTheCpuPerRow() {
        Plan plan = new CapacityModel(4, 0.5).plan(100_000_000L, 3_600, COSTS);

        assertThat(plan.rowsPerSecond()).isCloseTo(27_777.8, within(0.1));
        assertThat(plan.roles().get(0).cores()).isCloseTo(1.0, within(1e-9));
        assertThat(plan.roles().get(1).cores()).isCloseTo(2.0, within(1e-9));
    }

    @Test
    void aScalingRoleGetsEnoughProcessesAtTheUtilisation() {
        Plan plan = new CapacityModel(4, 0.5).plan(100_000_000L, 3_600, COSTS);

        // 2 usable cores per process: 1 core is one process, 2.0 cores one, 2.0001 would be two
        assertThat(plan.roles().get(0).processes()).isEqualTo(1);
        assertThat(plan.roles().get(1).processes()).isEqualTo(1);
        Plan doubled = new CapacityModel(4, 0.5).plan(200_000_000L, 3_600, COSTS);
        assertThat(doubled.roles().get(1).processes()).isEqualTo(2);
    }

    @Test
    void partitionsGiveEveryBusyPartitionedThreadItsOwn() {
        assertThat(new CapacityModel(4, 0.5).plan(100_000_000L, 3_600, COSTS).partitions()).isEqualTo(8);
        // 10x the rate: stream workers need 20 cores, 40 threads at half load
        assertThat(new CapacityModel(4, 0.5).plan(1_000_000_000L, 3_600, COSTS).partitions()).isEqualTo(40);
    }

    @Test
    void theSingleInstanceRoleWithTheLowestCeilingSaturatesFirst() {
        Plan plan = new CapacityModel(4, 0.5).plan(100_000_000L, 3_600, COSTS);

        assertThat(plan.firstToSaturate().role()).isEqualTo("storage Postgres");
        assertThat(plan.firstToSaturate().ceilingRowsPerSecond()).isCloseTo(40_000, within(1e-6));
        assertThat(plan.feasible()).isTrue();
        assertThat(new CapacityModel(4, 0.5).plan(200_000_000L, 3_600, COSTS).feasible()).isFalse();
    }

    @Test
    void nonsenseInputsAreRejected() {
        assertThatThrownBy(() -> new CapacityModel(0, 0.5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CapacityModel(4, 1.5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RoleCost("x", -1, true, false)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CapacityModel(4, 0.5).plan(0, 1, COSTS))
            .isInstanceOf(IllegalArgumentException.class);
    }
}
