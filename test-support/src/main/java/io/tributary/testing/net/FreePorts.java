package io.tributary.testing.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for a listener that some other process (a child JVM, a restarted broker) binds later.
 *
 * <p>A port the kernel hands out for {@code bind(0)} comes from its ephemeral range, the range it also takes the
 * local port of every outgoing connection from. Between picking such a port and the child binding it, any client
 * connection on the machine can take it (CI saw "Address already in use" for a child's metrics port). So the
 * ports here come from below the ephemeral range, where the kernel never assigns one by itself: only another
 * listener could take it, and each pick is random, checked free by binding it, and never handed out twice by
 * this JVM.
 */
public final class FreePorts {

    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    /** Linux's default start of the ephemeral range, for systems that do not say. */
    private static final int DEFAULT_EPHEMERAL_LOW = 32768;
    /** Well above the ports services usually take. */
    private static final int LOWEST = 10000;
    private static final int ATTEMPTS = 1000;
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();
    private static final int EPHEMERAL_LOW = readEphemeralLow();

    private FreePorts() {
    }

    /**
     * A port outside the ephemeral range that nothing listens on right now.
     *
     * @throws UncheckedIOException if no such port was found
     */
    public static int pick() {
        int highest = ephemeralLow() - 1;
        if (highest <= LOWEST) {
            return ephemeral();
        }
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(LOWEST, highest + 1);
            if (!HANDED_OUT.contains(port) && bindable(port) && HANDED_OUT.add(port)) {
                return port;
            }
        }
        throw new UncheckedIOException(new IOException("No free port in " + LOWEST + "-" + highest + " after "
            + ATTEMPTS + " attempts"));
    }

    /** The first port of the kernel's ephemeral range. */
    static int ephemeralLow() {
        return EPHEMERAL_LOW;
    }

    private static int readEphemeralLow() {
        try {
            // Files.readString reads a /proc file (size 0) short: "3" of "32768 60999".
            return Integer.parseInt(Files.readAllLines(EPHEMERAL_RANGE).get(0).trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return DEFAULT_EPHEMERAL_LOW;
        }
    }

    private static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket(port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** When the ephemeral range leaves no room below it: the kernel's pick, racy as it is. */
    private static int ephemeral() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("No free port", e);
        }
    }
}
