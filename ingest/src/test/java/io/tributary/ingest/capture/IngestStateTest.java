package io.tributary.ingest.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class IngestStateTest {

    @Test
    void aStandbyTakesOverThroughStarting() {
        IngestState.STANDBY.requireTransitionTo(IngestState.STARTING);
        IngestState.STARTING.requireTransitionTo(IngestState.ACTIVE);
    }

    @Test
    void finalStatesAreFinal() {
        assertThat(IngestState.FAILED.next()).isEmpty();
        assertThat(IngestState.STOPPED.next()).isEmpty();
        assertThatThrownBy(() -> IngestState.FAILED.requireTransitionTo(IngestState.STARTING))
            .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aNewServiceCannotBeActiveWithoutStarting() {
        assertThatThrownBy(() -> IngestState.NEW.requireTransitionTo(IngestState.ACTIVE))
            .isInstanceOf(IllegalStateException.class);
    }
}
