package io.tributary.testing.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TcpProxyTest {

    private ServerSocket echoServer;
    private TcpProxy proxy;

    @BeforeEach
    void startEchoServerAndProxy() throws IOException {
        echoServer = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::echoLoop, "echo-accept");
        acceptor.setDaemon(true);
        acceptor.start();
        proxy = TcpProxy.start("127.0.0.1", echoServer.getLocalPort());
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

    private void echoLoop() {
        while (!echoServer.isClosed()) {
            try {
                Socket socket = echoServer.accept();
                Thread echo = new Thread(() -> echo(socket), "echo");
                echo.setDaemon(true);
                echo.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private static void echo(Socket socket) {
        try (socket) {
            byte[] buffer = new byte[8192];
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // the test closed the connection
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
