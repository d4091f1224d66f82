package io.tributary.chaos.infra;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.chaos.harness.PipelineSettings;
import io.tributary.postgres.PgEndpoint;
import io.tributary.testing.net.EchoServer;
import java.io.IOException;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link SnapshotHold} against a real proxy and an echo server standing in for the source: the processes' source
 * answers at once before the hold engages and after every holder released it, and a whole held round trip later
 * in between, however many holders are left.
 */
class SnapshotHoldTest {

    private static final Duration HELD_ROUND_TRIP = SnapshotHold.HELD_LATENCY.multipliedBy(2);

    @Test
    void delaysTheSourceFromEngagedUntilEveryHolderReleased() throws Exception {
        List<String> log = new ArrayList<>();
        try (EchoServer echo = EchoServer.start(); SnapshotHold hold = new SnapshotHold(2, log::add)) {
            PgEndpoint source = hold.processSettings(settings(echo.port())).source();
            assertThat(source.port()).isNotEqualTo(echo.port());
            assertThat(roundTrip(source)).as("before the snapshot runs").isLessThan(SnapshotHold.HELD_LATENCY);

            hold.engage();
            assertThat(roundTrip(source)).as("held").isGreaterThanOrEqualTo(HELD_ROUND_TRIP);
            hold.release();
            assertThat(roundTrip(source)).as("one holder left").isGreaterThanOrEqualTo(HELD_ROUND_TRIP);
            hold.release();
            assertThat(roundTrip(source)).as("every holder released").isLessThan(SnapshotHold.HELD_LATENCY);

            hold.engage();
            assertThat(roundTrip(source)).as("engaged again after the lift").isLessThan(SnapshotHold.HELD_LATENCY);
        }
        assertThat(log).hasSize(2);
        assertThat(log.get(1)).contains("every snapshot fault has fired");
    }

    @Test
    void theEndOfTheFaultsLiftsItWhateverTheHolders() throws Exception {
        try (EchoServer echo = EchoServer.start(); SnapshotHold hold = new SnapshotHold(3, line -> { })) {
            PgEndpoint source = hold.processSettings(settings(echo.port())).source();
            hold.engage();
            hold.release();
            hold.stop();
            assertThat(roundTrip(source)).isLessThan(SnapshotHold.HELD_LATENCY);
        }
    }

    private static PipelineSettings settings(int sourcePort) {
        PgEndpoint source = PgEndpoint.of("jdbc:postgresql://127.0.0.1:" + sourcePort + "/source", "u", "p");
        return new PipelineSettings(Path.of("tributary.jar"), "localhost:9092", "t", 1, source, source, "slot",
            Path.of("rules.yaml"), Map.of(), Path.of("logs"));
    }

    /** One byte there and back over a new connection. */
    private static Duration roundTrip(PgEndpoint endpoint) throws IOException {
        try (Socket socket = new Socket(endpoint.host(), endpoint.port())) {
            socket.setSoTimeout(30_000);
            long start = System.nanoTime();
            socket.getOutputStream().write(42);
            socket.getOutputStream().flush();
            assertThat(socket.getInputStream().read()).isEqualTo(42);
            return Duration.ofNanos(System.nanoTime() - start);
        }
    }
}
