package io.tributary.writer.consume;

import static org.assertj.core.api.Assertions.assertThat;

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
}
