package io.tributary.testing.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FreePortsTest {

    @Test
    void picksBelowTheEphemeralRangeSoNoOutgoingConnectionCanTakeThePort() {
        int port = FreePorts.pick();

        assertThat(port).isGreaterThanOrEqualTo(10000).isLessThan(FreePorts.ephemeralLow());
    }

    @Test
    void aPickedPortCanBeBound() throws IOException {
        try (ServerSocket socket = new ServerSocket(FreePorts.pick())) {
            assertThat(socket.isBound()).isTrue();
        }
    }

    @Test
    void neverHandsOutAPortTwice() {
        Set<Integer> ports = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            assertThat(ports.add(FreePorts.pick())).isTrue();
        }
    }
}
