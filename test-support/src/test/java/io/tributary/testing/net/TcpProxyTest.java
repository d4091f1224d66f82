package io.tributary.testing.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TcpProxyTest {

    private EchoServer echoServer;
    private TcpProxy proxy;

    @BeforeEach
    void startEchoServerAndProxy() throws IOException {
        echoServer = EchoServer.start();
        proxy = TcpProxy.start("127.0.0.1", echoServer.port());
    }

    @AfterEach
    void stop() throws IOException {
        proxy.close();
        echoServer.close();
    }

    @Test
    void forwardsBytesInOrderBothWays() throws IOException {
        try (Socket socket = new Socket(proxy.host(), proxy.port())) {
            byte[] sent = new byte[200_000];
            for (int i = 0; i < sent.length; i++) {
                sent[i] = (byte) (i * 31);
            }
            Thread writer = new Thread(() -> writeQuietly(socket, sent));
            writer.start();
            byte[] received = new byte[sent.length];
            new DataInputStream(socket.getInputStream()).readFully(received);
            assertThat(received).isEqualTo(sent);
        }
        assertThat(proxy.bytesForwarded()).isBetween(1L, 400_000L);
    }

    @Test
    void latencyDelaysEachChunkWithoutSerializingThem() throws IOException {
        proxy.setLatency(Duration.ofMillis(100));
        try (Socket socket = new Socket(proxy.host(), proxy.port())) {
            socket.setTcpNoDelay(true);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            long start = System.nanoTime();
            for (int i = 0; i < 20; i++) {
                out.write(i);
                out.flush();
            }
            byte[] received = new byte[20];
            new DataInputStream(in).readFully(received);
            long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
            for (int i = 0; i < 20; i++) {
                assertThat(received[i]).isEqualTo((byte) i);
            }
            // one round trip is two one-way delays; twenty serialized chunks would take 2 s or more
            assertThat(elapsedMillis).isBetween(200L, 1_500L);
        }
    }

    @Test
    void roundTripTakesTwiceTheOneWayLatency() throws IOException {
        proxy.setLatency(Duration.ofMillis(80));
        try (Socket socket = new Socket(proxy.host(), proxy.port())) {
            long start = System.nanoTime();
            socket.getOutputStream().write(7);
            assertThat(socket.getInputStream().read()).isEqualTo(7);
            assertThat((System.nanoTime() - start) / 1_000_000).isGreaterThanOrEqualTo(160L);
        }
    }

    @Test
    void bandwidthCapPacesOneConnection() throws Exception {
        proxy.setBandwidth(200_000);
        long elapsedMillis = echoTimed(200_000);
        // the first 16 KiB chunk goes at once, the rest at 200,000 B/s: at least 0.92 s
        assertThat(elapsedMillis).isBetween(850L, 6_000L);
    }

    @Test
    void bandwidthCapIsPerConnection() throws Exception {
        proxy.setBandwidth(200_000);
        List<Thread> clients = new ArrayList<>();
        List<Long> elapsed = new CopyOnWriteArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < 4; i++) {
            Thread client = new Thread(() -> elapsed.add(echoTimedQuietly(200_000)));
            client.start();
            clients.add(client);
        }
        for (Thread client : clients) {
            client.join(20_000);
        }
        long totalMillis = (System.nanoTime() - start) / 1_000_000;
        assertThat(elapsed).hasSize(4).allSatisfy(millis -> assertThat(millis).isGreaterThanOrEqualTo(850L));
        // one cap shared by the four would need at least 3.8 s
        assertThat(totalMillis).isLessThan(3_500L);
    }

    @Test
    void aRemovedCapNoLongerPaces() throws Exception {
        proxy.setBandwidth(10_000);
        proxy.setBandwidth(0);
        assertThat(echoTimed(200_000)).isLessThan(2_000L);
    }

    @Test
    void aNegativeCapIsRejected() {
        assertThatThrownBy(() -> proxy.setBandwidth(-1)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("bandwidth");
    }

    /** Milliseconds to echo {@code bytes} bytes through the proxy on a new connection, checked byte for byte. */
    private long echoTimed(int bytes) throws IOException {
        try (Socket socket = new Socket(proxy.host(), proxy.port())) {
            byte[] sent = new byte[bytes];
            for (int i = 0; i < sent.length; i++) {
                sent[i] = (byte) (i * 7);
            }
            long start = System.nanoTime();
            Thread writer = new Thread(() -> writeQuietly(socket, sent));
            writer.start();
            byte[] received = new byte[sent.length];
            new DataInputStream(socket.getInputStream()).readFully(received);
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertThat(received).isEqualTo(sent);
            return millis;
        }
    }

    private long echoTimedQuietly(int bytes) {
        try {
            return echoTimed(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void aDroppedConnectionEndsForTheClient() throws IOException {
        try (Socket socket = new Socket(proxy.host(), proxy.port())) {
            socket.getOutputStream().write(1);
            assertThat(socket.getInputStream().read()).isEqualTo(1);
            proxy.dropConnections();
            assertThat(socket.getInputStream().read()).isEqualTo(-1);
        }
    }

    @Test
    void aRefusingProxyClosesNewConnectionsAtOnce() throws IOException {
        proxy.setRefusing(true);
        try (Socket socket = new Socket(proxy.host(), proxy.port())) {
            assertThat(socket.getInputStream().read()).isEqualTo(-1);
        }
        proxy.setRefusing(false);
        try (Socket socket = new Socket(proxy.host(), proxy.port())) {
            socket.getOutputStream().write(5);
            assertThat(socket.getInputStream().read()).isEqualTo(5);
        }
    }

    private static void writeQuietly(Socket socket, byte[] bytes) {
        try {
            socket.getOutputStream().write(bytes);
            socket.getOutputStream().flush();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
