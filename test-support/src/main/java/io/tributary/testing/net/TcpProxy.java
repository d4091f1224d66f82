package io.tributary.testing.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy on a free loopback port in front of one target, for injecting network faults into tests: latency
 * per forwarded chunk, a bandwidth cap per connection and direction, dropped connections and a "down" target that
 * refuses new connections.
 *
 * <p>Every accepted connection opens its own connection to the target and forwards bytes both ways. Latency is
 * a delay line per direction: each chunk read is stamped with {@code now + latency} and written once due, in
 * order, so throughput is not limited to one chunk per latency. A latency change applies to chunks read after
 * it. Thread-safe; every thread it starts is a daemon.
 */
public final class TcpProxy implements AutoCloseable {

    private static final String LOOPBACK = "127.0.0.1";
    private static final AtomicInteger NEXT_PROXY = new AtomicInteger();

    private final String targetHost;
    private final int targetPort;
    private final ServerSocket server;
    private final int id = NEXT_PROXY.incrementAndGet();
    private final Set<ProxiedConnection> connections = ConcurrentHashMap.newKeySet();
    private final AtomicLong bytesForwarded = new AtomicLong();
    private final AtomicInteger nextConnection = new AtomicInteger();
    private volatile long latencyNanos;
    private volatile long bytesPerSecond;
    private volatile boolean refusing;
    private volatile boolean closed;

    private TcpProxy(String targetHost, int targetPort, ServerSocket server) {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.server = server;
    }

    /**
     * Starts a proxy listening on a free port of {@code 127.0.0.1} that forwards to {@code targetHost:targetPort}.
     * The target need not be up yet: it is connected to per accepted connection.
     *
     * @throws UncheckedIOException if no port can be bound
     */
    public static TcpProxy start(String targetHost, int targetPort) {
        Objects.requireNonNull(targetHost, "targetHost");
        if (targetPort < 1 || targetPort > 65_535) {
            throw new IllegalArgumentException("targetPort out of range: " + targetPort);
        }
        ServerSocket server;
        try {
            server = new ServerSocket();
            server.setReuseAddress(true);
            server.bind(new InetSocketAddress(InetAddress.getByName(LOOPBACK), 0), 128);
        } catch (IOException e) {
            throw new UncheckedIOException("TcpProxy to " + targetHost + ":" + targetPort + " could not listen", e);
        }
        TcpProxy proxy = new TcpProxy(targetHost, targetPort, server);
        Thread acceptor = new Thread(proxy::acceptLoop, "tcp-proxy-" + proxy.id + "-accept");
        acceptor.setDaemon(true);
        acceptor.start();
        return proxy;
    }

    /**
     * Starts a proxy in front of the server a Postgres JDBC URL names ({@code jdbc:postgresql://host:port/...}).
     */
    public static TcpProxy inFrontOf(String jdbcUrl) {
        URI uri = jdbcUri(jdbcUrl);
        return start(Optional.ofNullable(uri.getHost()).orElse("localhost"), uri.getPort());
    }

    /** {@code jdbcUrl} with its host and port replaced by this proxy's: same database and parameters. */
    public String route(String jdbcUrl) {
        URI uri = jdbcUri(jdbcUrl);
        return "jdbc:postgresql://" + host() + ":" + port() + uri.getRawPath()
            + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    }

    private static URI jdbcUri(String jdbcUrl) {
        if (!jdbcUrl.startsWith("jdbc:postgresql://")) {
            throw new IllegalArgumentException("Not a jdbc:postgresql://host:port/... URL: " + jdbcUrl);
        }
        return URI.create(jdbcUrl.substring("jdbc:".length()));
    }

    /** The address clients connect to: always {@code 127.0.0.1}. */
    public String host() {
        return LOOPBACK;
    }

    /** The port clients connect to. */
    public int port() {
        return server.getLocalPort();
    }

    /** The one-way delay added to every chunk forwarded after this call, in each direction; ZERO means none. */
    public void setLatency(Duration oneWay) {
        Objects.requireNonNull(oneWay, "oneWay");
        if (oneWay.isNegative()) {
            throw new IllegalArgumentException("latency must not be negative: " + oneWay);
        }
        latencyNanos = oneWay.toNanos();
    }

    /**
     * Caps every connection, in each direction on its own, at {@code bytesPerSecond} from the next chunk it
     * forwards (a remote source over a slow link); 0 removes the cap. N connections may move N times the cap
     * together: the cap is per connection, as a per-flow network limit is.
     */
    public void setBandwidth(long bytesPerSecond) {
        if (bytesPerSecond < 0) {
            throw new IllegalArgumentException("bandwidth must be >= 0 bytes/s (0 = none): " + bytesPerSecond);
        }
        this.bytesPerSecond = bytesPerSecond;
    }

    /** Closes every open connection, on both sides, now. Connections accepted afterwards are forwarded as usual. */
    public void dropConnections() {
        for (ProxiedConnection connection : connections) {
            connection.close();
        }
    }

    /**
     * While {@code true}, every newly accepted connection is closed at once without contacting the target (the
     * target looks down). Open connections are not affected; combine with {@link #dropConnections()}.
     */
    public void setRefusing(boolean refusing) {
        this.refusing = refusing;
    }

    /** Bytes written to either side so far, both directions summed. */
    public long bytesForwarded() {
        return bytesForwarded.get();
    }

    /** Stops listening and closes every open connection. Idempotent. */
    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            // the listening socket is gone either way
        }
        dropConnections();
    }

    @Override
    public String toString() {
        return "TcpProxy[" + LOOPBACK + ":" + port() + " -> " + targetHost + ":" + targetPort + "]";
    }

    long latencyNanos() {
        return latencyNanos;
    }

    /** How long {@code bytes} take at the bandwidth cap; 0 without one. */
    long transferNanos(int bytes) {
        long cap = bytesPerSecond;
        return cap == 0 ? 0 : bytes * 1_000_000_000L / cap;
    }

    void forwarded(int bytes) {
        bytesForwarded.addAndGet(bytes);
    }

    void closed(ProxiedConnection connection) {
        connections.remove(connection);
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                if (closed) {
                    return;
                }
                continue;
            }
            if (refusing || closed) {
                closeQuietly(client);
                continue;
            }
            open(client);
        }
    }

    private void open(Socket client) {
        Socket target = new Socket();
        try {
            client.setTcpNoDelay(true);
            target.setTcpNoDelay(true);
            target.connect(new InetSocketAddress(targetHost, targetPort), 10_000);
        } catch (IOException e) {
            closeQuietly(client);
            closeQuietly(target);
            return;
        }
        ProxiedConnection connection = new ProxiedConnection(
            this, "tcp-proxy-" + id + "-" + nextConnection.incrementAndGet(), client, target);
        connections.add(connection);
        connection.start();
        if (closed) {
            connection.close();
        }
    }

    static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing is best effort; the peer sees the connection end either way
        }
    }
}
