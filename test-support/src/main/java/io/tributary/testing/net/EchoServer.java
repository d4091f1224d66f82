package io.tributary.testing.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * A loopback TCP server that sends back every byte it reads, one daemon thread per connection; the far end of a
 * {@link TcpProxy} in tests. Test support; thread-safe.
 */
public final class EchoServer implements AutoCloseable {

    private final ServerSocket server;

    private EchoServer() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    }

    /** Starts a server on a free loopback port. */
    public static EchoServer start() throws IOException {
        EchoServer echo = new EchoServer();
        Thread accept = new Thread(echo::accept, "echo-accept");
        accept.setDaemon(true);
        accept.start();
        return echo;
    }

    /** The port it listens on. */
    public int port() {
        return server.getLocalPort();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
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
            // the client closed the connection
        }
    }

    /** Stops accepting; connections already open end when their client closes them. */
    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
