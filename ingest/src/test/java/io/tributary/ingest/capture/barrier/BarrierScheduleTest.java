package io.tributary.ingest.capture.barrier;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.Lsn;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BarrierScheduleTest {

    private static final long MS = 1_000_000;

    @Test
    void noBarrierBeforeAnyPositionIsKnown() {
        BarrierSchedule schedule = BarrierSchedule.after(new RecoveredBarriers(2, Map.of()), Duration.ZERO);

        assertThat(schedule.next(Optional.empty(), 0)).isEmpty();
        assertThat(schedule.next(Optional.of(Lsn.of(100)), 1)).contains(Barrier.of(1, Lsn.of(100)));
    }

    @Test
    void barriersAreSpacedByTheInterval() {
        BarrierSchedule schedule = BarrierSchedule.after(new RecoveredBarriers(2, Map.of()), Duration.ofMillis(200));

        assertThat(schedule.next(Optional.of(Lsn.of(100)), 0)).contains(Barrier.of(1, Lsn.of(100)));
        assertThat(schedule.next(Optional.of(Lsn.of(150)), 100 * MS)).isEmpty();
        assertThat(schedule.next(Optional.of(Lsn.of(160)), 200 * MS)).contains(Barrier.of(2, Lsn.of(160)));
    }

    @Test
    void epochsContinueAfterTheNewestRecoveredBarrierAndLsnsNeverGoBack() {
        RecoveredBarriers recovered = new RecoveredBarriers(2,
            Map.of(0, Barrier.of(41, Lsn.of(900)), 1, Barrier.of(40, Lsn.of(800))));
        BarrierSchedule schedule = BarrierSchedule.after(recovered, Duration.ZERO);

        assertThat(schedule.next(Optional.of(Lsn.of(500)), 0)).contains(Barrier.of(42, Lsn.of(900)));
        assertThat(schedule.next(Optional.of(Lsn.of(950)), 1)).contains(Barrier.of(43, Lsn.of(950)));
    }

    @Test
    void anIdleSourceStillGetsBarriersAtTheLastPosition() {
        BarrierSchedule schedule = BarrierSchedule.after(new RecoveredBarriers(1, Map.of()), Duration.ofMillis(200));
        schedule.next(Optional.of(Lsn.of(100)), 0);

        assertThat(schedule.next(Optional.empty(), 300 * MS)).contains(Barrier.of(2, Lsn.of(100)));
    }
}
