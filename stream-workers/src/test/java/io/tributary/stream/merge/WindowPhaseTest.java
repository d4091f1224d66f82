package io.tributary.stream.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class WindowPhaseTest {

    @Test
    void pendingOpensAndOpenEndsReadyOrSuperseded() {
        assertThat(WindowPhase.PENDING.moveTo(WindowPhase.OPEN)).isEqualTo(WindowPhase.OPEN);
        assertThat(WindowPhase.OPEN.moveTo(WindowPhase.READY)).isEqualTo(WindowPhase.READY);
        assertThat(WindowPhase.OPEN.moveTo(WindowPhase.SUPERSEDED)).isEqualTo(WindowPhase.SUPERSEDED);
    }

    @Test
    void closedPhasesAreFinal() {
        for (WindowPhase next : WindowPhase.values()) {
            assertThatThrownBy(() -> WindowPhase.READY.moveTo(next)).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> WindowPhase.SUPERSEDED.moveTo(next)).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void pendingCannotBecomeReadyWithoutItsMarker() {
        assertThatThrownBy(() -> WindowPhase.PENDING.moveTo(WindowPhase.READY))
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("PENDING to READY");
    }
}
