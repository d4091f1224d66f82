package io.tributary.chaos.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PhaseWritesTest {

    @Test
    void eachPhaseCountsTheCommitsBetweenItsReadings() {
        PhaseWrites writes = PhaseWrites.between(5, 105, 305);

        assertThat(writes).isEqualTo(new PhaseWrites(100, 200));
    }

    @Test
    void aCountThatGoesBackIsRejected() {
        assertThatThrownBy(() -> PhaseWrites.between(10, 5, 20)).isInstanceOf(IllegalArgumentException.class);
    }
}
