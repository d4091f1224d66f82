package io.tributary.ingest.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.topics.messages.ChunkRange;
import io.tributary.topics.messages.KeyValues;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlannerTableSplitTest {

    @Test
    void boundariesMakeAChainFromUnboundedToUnbounded() {
        TableSplit split = TableSplit.at(30, List.of(KeyValues.of("[10]"), KeyValues.of("[20]")));

        assertThat(split.ranges()).containsExactly(ChunkRange.until(KeyValues.of("[10]")),
            ChunkRange.of(KeyValues.of("[10]"), KeyValues.of("[20]")), ChunkRange.from(KeyValues.of("[20]")));
    }

    @Test
    void aSmallTableIsOneChunk() {
        assertThat(TableSplit.single(5).ranges()).containsExactly(ChunkRange.all());
    }

    @Test
    void aGapBetweenRangesIsRejected() {
        assertThatThrownBy(() -> new TableSplit(1, List.of(ChunkRange.until(KeyValues.of("[1]")),
            ChunkRange.from(KeyValues.of("[2]"))))).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("must start where");
    }

    @Test
    void aBoundedFirstRangeIsRejected() {
        assertThatThrownBy(() -> new TableSplit(1, List.of(ChunkRange.from(KeyValues.of("[1]")))))
            .isInstanceOf(IllegalArgumentException.class);
    }
}
