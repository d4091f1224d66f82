package io.tributary.launcher.config;

import java.util.Objects;

/**
 * The sync API of a process ({@code api.*}, {@code client_auth.*}).
 *
 * @param port               0 = off
 * @param host               the interface to listen on
 * @param maxStreams         the most concurrent streams, &gt; 0
 * @param storageConnections the storage connections the streams share, &gt; 0
 * @param acceptQueue        the listen backlog: connections the kernel queues before the server accepts them
 * @param auth               how client tokens are verified
 */
public record ApiConfig(int port, String host, int maxStreams, int storageConnections, int acceptQueue,
                        ClientAuth auth) {

    public ApiConfig {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(auth, "auth");
    }
}
