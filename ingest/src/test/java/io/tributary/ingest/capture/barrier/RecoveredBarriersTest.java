package io.tributary.ingest.capture.barrier;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.Lsn;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecoveredBarriersTest {

    @Test
    void partitionsThatMissedTheNewestBarrierAreBehind() {
        RecoveredBarriers recovered = new RecoveredBarriers(4,
            Map.of(0, Barrier.of(7, Lsn.of(70)), 1, Barrier.of(8, Lsn.of(80)), 3, Barrier.of(8, Lsn.of(80))));

        assertThat(recovered.latest()).contains(Barrier.of(8, Lsn.of(80)));
        assertThat(recovered.partitionsBehind()).containsExactly(0, 2);
        assertThat(recovered.highestLsn()).isEqualTo(Lsn.of(80));
    }

    @Test
    void aFreshTopicHasNoBarrierAndNothingBehind() {
        RecoveredBarriers recovered = new RecoveredBarriers(3, Map.of());

        assertThat(recovered.latest()).isEmpty();
        assertThat(recovered.partitionsBehind()).isEmpty();
        assertThat(recovered.highestLsn()).isEqualTo(Lsn.ZERO);
    }
}
