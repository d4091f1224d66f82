package io.tributary.chaos.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.storage.groups.Checkpoint;
import org.junit.jupiter.api.Test;

class CheckpointOrderTest {

    private final CheckpointOrder order = new CheckpointOrder();
    private long sequence;

    @Test
    void checkpointsThatGoForwardPass() {
        assertThat(order.next(published(1, 10, "0/100", 1))).isEmpty();
        assertThat(order.next(published(1, 12, "0/180", 2))).isEmpty();
        assertThat(order.next(published(1, 12, "0/200", 3))).as("an idle advance keeps its op id").isEmpty();
    }

    @Test
    void anOpIdThatGoesBackIsAMismatch() {
        order.next(published(1, 10, "0/100", 1));

        assertThat(order.next(published(1, 9, "0/200", 2))).hasValueSatisfying(m -> {
            assertThat(m.check()).isEqualTo("checkpoint-order");
            assertThat(m.key()).contains("group 1");
            assertThat(m.actual()).contains("opId=9");
        });
    }

    @Test
    void anLsnThatGoesBackIsAMismatch() {
        order.next(published(1, 10, "0/1000", 1));

        assertThat(order.next(published(1, 11, "0/FFF", 2))).isPresent();
    }

    @Test
    void anEpochThatGoesBackIsAMismatch() {
        order.next(published(1, 10, "0/100", 5));

        assertThat(order.next(published(1, 11, "0/200", 4))).isPresent();
    }

    @Test
    void theSameCheckpointPublishedTwiceIsAMismatch() {
        order.next(published(1, 10, "0/100", 1));

        assertThat(order.next(published(1, 10, "0/100", 1))).isPresent();
    }

    @Test
    void groupsAreOrderedEachOnItsOwn() {
        order.next(published(1, 50, "0/500", 7));

        assertThat(order.next(published(2, 10, "0/100", 1))).isEmpty();
        assertThat(order.next(published(1, 51, "0/600", 8))).isEmpty();
    }

    private PublishedCheckpoint published(long group, long opId, String lsn, long epoch) {
        return new PublishedCheckpoint(++sequence, group, new Checkpoint(opId, lsn, epoch));
    }
}
