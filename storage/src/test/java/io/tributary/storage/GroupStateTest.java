package io.tributary.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.storage.groups.GroupState;
import org.junit.jupiter.api.Test;

class GroupStateTest {

    @Test
    void followsTheLifecycle() {
        GroupState.PROCESSING.requireTransitionTo(GroupState.ACTIVE);
        GroupState.ACTIVE.requireTransitionTo(GroupState.STOP);
        GroupState.STOP.requireTransitionTo(GroupState.TERMINATED);
        GroupState.PROCESSING.requireTransitionTo(GroupState.STOP);
    }

    @Test
    void rejectsGoingBack() {
        assertThatThrownBy(() -> GroupState.ACTIVE.requireTransitionTo(GroupState.PROCESSING))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("ACTIVE -> PROCESSING");
        assertThatThrownBy(() -> GroupState.TERMINATED.requireTransitionTo(GroupState.ACTIVE))
            .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void onlyProcessingAndActiveAreLive() {
        assertThat(GroupState.PROCESSING.isLive()).isTrue();
        assertThat(GroupState.ACTIVE.isLive()).isTrue();
        assertThat(GroupState.STOP.isLive()).isFalse();
        assertThat(GroupState.TERMINATED.isLive()).isFalse();
    }
}
