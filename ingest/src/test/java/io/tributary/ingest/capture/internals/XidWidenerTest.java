package io.tributary.ingest.capture.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class XidWidenerTest {

    private static final long EPOCH_3 = 3L << 32;

    @Test
    void idsOfTheReferenceEpochKeepIt() {
        XidWidener widener = new XidWidener(EPOCH_3 + 1000);

        assertThat(widener.widen(990)).isEqualTo(EPOCH_3 + 990);
        assertThat(widener.widen(1500)).isEqualTo(EPOCH_3 + 1500);
    }

    @Test
    void idsAfterTheReferenceAcrossWraparoundMoveToTheNextEpoch() {
        XidWidener widener = new XidWidener(EPOCH_3 + 0xFFFFFFF0L);

        assertThat(widener.widen(0xFFFFFFFEL)).isEqualTo(EPOCH_3 + 0xFFFFFFFEL);
        assertThat(widener.widen(5)).isEqualTo(EPOCH_3 + (1L << 32) + 5);
    }

    @Test
    void idsBeforeTheReferenceAcrossWraparoundStayInThePreviousEpoch() {
        XidWidener widener = new XidWidener(EPOCH_3 + 10);

        assertThat(widener.widen(0xFFFFFFF0L)).isEqualTo(EPOCH_3 - 16);
    }

    @Test
    void aLongRunOfIncreasingIdsFollowsEveryWraparound() {
        XidWidener widener = new XidWidener(100);
        long full = 100;
        for (int i = 0; i < 5_000; i++) {
            full += 1_000_003;
            assertThat(widener.widen(full & 0xFFFFFFFFL)).isEqualTo(full);
        }
    }

    @Test
    void rejectsIdsThatAreNotThirtyTwoBit() {
        XidWidener widener = new XidWidener(100);

        assertThatThrownBy(() -> widener.widen(1L << 32)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> widener.widen(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
