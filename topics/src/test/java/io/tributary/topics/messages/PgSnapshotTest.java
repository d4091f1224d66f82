package io.tributary.topics.messages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class PgSnapshotTest {

    @Test
    void parsesAndFormatsPostgresText() {
        PgSnapshot snapshot = PgSnapshot.parse("10:20:12,15");
        assertThat(snapshot.xmin()).isEqualTo(10);
        assertThat(snapshot.xmax()).isEqualTo(20);
        assertThat(snapshot.xip()).containsExactly(12L, 15L);
        assertThat(snapshot).hasToString("10:20:12,15");
    }

    @Test
    void parsesAnEmptyInProgressList() {
        PgSnapshot snapshot = PgSnapshot.parse("748:748:");
        assertThat(snapshot.xip()).isEmpty();
        assertThat(snapshot).hasToString("748:748:");
    }

    @Test
    void parsesSixtyFourBitIds() {
        long big = 5L << 32 | 17;
        PgSnapshot snapshot = PgSnapshot.parse(big + ":" + (big + 3) + ":" + (big + 1));
        assertThat(snapshot.isVisible(big + 1)).isFalse();
        assertThat(snapshot.isVisible(big + 2)).isTrue();
    }

    @Test
    void idsBelowXminAreVisible() {
        assertThat(PgSnapshot.parse("10:20:12").isVisible(9)).isTrue();
    }

    @Test
    void idsInProgressAreInvisible() {
        assertThat(PgSnapshot.parse("10:20:10,12").isVisible(10)).isFalse();
        assertThat(PgSnapshot.parse("10:20:10,12").isVisible(12)).isFalse();
    }

    @Test
    void completedIdsBelowXmaxAreVisible() {
        assertThat(PgSnapshot.parse("10:20:12").isVisible(11)).isTrue();
        assertThat(PgSnapshot.parse("10:20:12").isVisible(19)).isTrue();
    }

    @Test
    void idsFromXmaxOnAreInvisible() {
        assertThat(PgSnapshot.parse("10:20:12").isVisible(20)).isFalse();
        assertThat(PgSnapshot.parse("10:20:12").isVisible(21)).isFalse();
    }

    @Test
    void sortsInProgressIds() {
        assertThat(PgSnapshot.of(10, 20, List.of(15L, 12L))).isEqualTo(PgSnapshot.parse("10:20:12,15"));
    }

    @Test
    void rejectsInvalidSnapshots() {
        for (String bad : new String[] {"", "10", "10:20", "20:10:", "10:20:9", "10:20:20", "10:20:12,12", "a:b:",
            "10:20:12,"}) {
            assertThatThrownBy(() -> PgSnapshot.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void widensAThirtyTwoBitIdIntoTheReferenceEpoch() {
        long reference = 3L << 32 | 1000;
        assertThat(PgSnapshot.widenXid(900, reference)).isEqualTo(3L << 32 | 900);
    }

    @Test
    void widensAThirtyTwoBitIdFromBeforeAnEpochWrap() {
        long reference = 3L << 32 | 5;
        assertThat(PgSnapshot.widenXid(0xFFFFFFF0L, reference)).isEqualTo(2L << 32 | 0xFFFFFFF0L);
    }

    @Test
    void refusesToWidenAnIdNewerThanTheReferenceInEpochZero() {
        assertThatThrownBy(() -> PgSnapshot.widenXid(2000, 1000)).isInstanceOf(IllegalArgumentException.class);
    }
}
