package io.tributary.writer.consume;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PeerSealsTest {

    @Test
    void aPartitionMayGoOnOnceEveryOtherPartitionSealedItsEpochEvenBeforeItsOwnSealIsKnown() {
        PeerSeals seals = new PeerSeals(1, 3);
        seals.sealed(1, 5);
        seals.sealed(2, 6);

        assertThat(seals.allows(0, 5)).isTrue();
        assertThat(seals.allows(0, 6)).isFalse();
        assertThat(seals.allows(1, 5)).isFalse();
    }

    @Test
    void nothingSealedYetOnlyAllowsAPartitionWithoutSeals() {
        PeerSeals seals = new PeerSeals(1, 2);

        assertThat(seals.allows(0, -1)).isTrue();
        assertThat(seals.allows(0, 0)).isFalse();
    }

    @Test
    void aSealCommittedByAnotherLoopOfTheProcessOpensTheGateWithoutARead() {
        ProcessSeals process = new ProcessSeals(2);
        PeerSeals mine = new PeerSeals(1, process);
        PeerSeals sibling = new PeerSeals(1, process);
        assertThat(mine.allows(0, 4)).isFalse();

        sibling.sealed(1, 4);

        assertThat(mine.allows(0, 4)).isTrue();
        assertThat(mine.allows(0, 5)).isFalse();
    }

    @Test
    void onlyANewerSealWakesTheOtherLoops() {
        ProcessSeals process = new ProcessSeals(2);
        AtomicInteger wakeUps = new AtomicInteger();
        process.onNewSeal(wakeUps::incrementAndGet);

        process.sealed(0, 3);
        process.sealed(0, 3);
        process.sealed(0, 2);
        process.sealed(1, 0);

        assertThat(wakeUps).hasValue(2);
        assertThat(process.newest(0)).isEqualTo(3);
    }
}
