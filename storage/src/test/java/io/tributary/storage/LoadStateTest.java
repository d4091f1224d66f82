package io.tributary.storage;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.storage.groups.LoadState;
import org.junit.jupiter.api.Test;

class LoadStateTest {

    @Test
    void aNewGroupLoadsOrKeepsItsKey() {
        LoadState.NEW.requireTransitionTo(LoadState.LOADING);
        LoadState.LOADING.requireTransitionTo(LoadState.INDEXED);
        LoadState.NEW.requireTransitionTo(LoadState.INDEXED);
    }

    @Test
    void anIndexedGroupNeverLoadsAgain() {
        assertThatThrownBy(() -> LoadState.INDEXED.requireTransitionTo(LoadState.LOADING))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("INDEXED -> LOADING");
        assertThatThrownBy(() -> LoadState.LOADING.requireTransitionTo(LoadState.NEW))
            .isInstanceOf(IllegalStateException.class);
    }
}
