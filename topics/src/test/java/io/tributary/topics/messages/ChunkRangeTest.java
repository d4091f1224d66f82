package io.tributary.topics.messages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ChunkRangeTest {

    @Test
    void rejectsEqualBounds() {
        assertThatThrownBy(() -> ChunkRange.of(KeyValues.of("[5]"), KeyValues.of("[5]")))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lo != hi");
    }

    @Test
    void allowsBothSidesUnbounded() {
        assertThat(ChunkRange.all().isAll()).isTrue();
        assertThat(ChunkRange.all()).hasToString("[-inf, +inf)");
    }

    @Test
    void describesHalfOpenRanges() {
        assertThat(ChunkRange.from(KeyValues.of("[1]"))).hasToString("[[1], +inf)");
        assertThat(ChunkRange.until(KeyValues.of("[9]"))).hasToString("[-inf, [9])");
        assertThat(ChunkRange.of(KeyValues.of("[1]"), KeyValues.of("[9]")).isAll()).isFalse();
    }
}
