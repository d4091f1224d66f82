package io.tributary.api;

import io.tributary.postgres.PgEndpoint;
import io.tributary.testing.PostgresDatabase;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy in front of a test database that reads the Postgres protocol its clients send and counts the
 * statements whose SQL contains a marker. The endpoint it hands out turns off server-side prepared statements
 * ({@code prepareThreshold=0}) and encryption, so every execution of a statement sends its SQL in a Parse (or
 * Query) message and is counted once. Server replies are forwarded untouched. Thread-safe.
 */
final class StatementCounter implements AutoCloseable {

    private static final int SSL_REQUEST = 80877103;
    private static final int GSS_REQUEST = 80877104;

    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final byte[] marker;
    private final AtomicLong counted = new AtomicLong();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final PostgresDatabase db;

    private StatementCounter(PostgresDatabase db, String marker) throws IOException {
        this.db = db;
        URI uri = URI.create(db.jdbcUrl().substring("jdbc:".length()));
        this.target = new InetSocketAddress(uri.getHost(), uri.getPort());
        this.marker = marker.getBytes(StandardCharsets.UTF_8);
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(this::accept, "statement-counter");
        accept.setDaemon(true);
        accept.start();
    }

    /** Counts statements containing {@code marker} sent to {@code db} through {@link #endpoint()}. */
    static StatementCounter inFrontOf(PostgresDatabase db, String marker) throws IOException {
        return new StatementCounter(db, marker);
    }

    /** The endpoint of the database through this proxy. */
    PgEndpoint endpoint() {
        URI uri = URI.create(db.jdbcUrl().substring("jdbc:".length()));
        return new PgEndpoint("jdbc:postgresql://127.0.0.1:" + listener.getLocalPort() + uri.getPath()
            + "?prepareThreshold=0&sslmode=disable&gssEncMode=disable", db.user(), db.password());
    }

    /** The statements containing the marker sent so far. */
    long count() {
        return counted.get();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(target.getAddress(), target.getPort());
                sockets.add(client);
                sockets.add(server);
                start(() -> pumpClient(client.getInputStream(), server.getOutputStream()), client, server);
                start(() -> server.getInputStream().transferTo(client.getOutputStream()), client, server);
            } catch (IOException e) {
                return;
            }
        }
    }

    /** Forwards the client's messages one at a time, counting Parse and Query messages with the marker. */
    private void pumpClient(InputStream from, OutputStream to) throws IOException {
        DataInputStream in = new DataInputStream(from);
        boolean started = false;
        while (true) {
            int type;
            if (started) {
                type = in.read();
                if (type < 0) {
                    return;
                }
            } else {
                type = -1;
            }
            int length = in.readInt();
            byte[] body = new byte[length - 4];
            in.readFully(body);
            if (!started) {
                int code = body.length >= 4 ? ((body[0] & 0xff) << 24 | (body[1] & 0xff) << 16
                    | (body[2] & 0xff) << 8 | (body[3] & 0xff)) : 0;
                started = code != SSL_REQUEST && code != GSS_REQUEST;
            } else if ((type == 'P' || type == 'Q') && contains(body, marker)) {
                counted.incrementAndGet();
            }
            if (type >= 0) {
                to.write(type);
            }
            to.write(length >>> 24);
            to.write(length >>> 16);
            to.write(length >>> 8);
            to.write(length);
            to.write(body);
            to.flush();
        }
    }

    private static boolean contains(byte[] body, byte[] marker) {
        outer:
        for (int i = 0; i + marker.length <= body.length; i++) {
            for (int j = 0; j < marker.length; j++) {
                if (body[i + j] != marker[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    /** Copies in a daemon thread; the end of either side closes both. */
    private static void start(Pump pump, Socket a, Socket b) {
        Thread thread = new Thread(() -> {
            try {
                pump.run();
            } catch (EOFException e) {
                // the client went away between messages
            } catch (IOException e) {
                // a side closed
            } finally {
                closeQuietly(a);
                closeQuietly(b);
            }
        }, "statement-counter-pump");
        thread.setDaemon(true);
        thread.start();
    }

    @FunctionalInterface
    private interface Pump {
        void run() throws IOException;
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        sockets.forEach(StatementCounter::closeQuietly);
    }
}
