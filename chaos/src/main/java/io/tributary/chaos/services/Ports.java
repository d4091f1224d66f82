package io.tributary.chaos.services;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Free loopback ports for services that must keep their port across restarts. */
final class Ports {

    private Ports() {
    }

    /** A port that was free on {@code 127.0.0.1} a moment ago. */
    static int free() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("No free loopback port", e);
        }
    }
}
