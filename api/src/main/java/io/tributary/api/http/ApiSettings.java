package io.tributary.api.http;

import io.tributary.api.auth.AuthSettings;
import io.tributary.api.stream.StreamSettings;
import java.util.Objects;

/**
 * What the API server needs besides storage and the source.
 *
 * @param host               the interface to listen on ({@code 0.0.0.0} for all)
 * @param port               the port, 0 = any free one (see {@link ApiServer#port()})
 * @param maxStreams         the most concurrent sync streams; more get 503 and retry, &gt; 0
 * @param storageConnections the storage connections streams share, &gt; 0
 * @param acceptQueue        the listen backlog (connections the kernel queues before they are accepted), &gt; 0
 * @param auth               how tokens are verified
 * @param stream             stream limits and timings
 */
public record ApiSettings(String host, int port, int maxStreams, int storageConnections, int acceptQueue,
                          AuthSettings auth, StreamSettings stream) {

    public ApiSettings {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(auth, "auth");
        Objects.requireNonNull(stream, "stream");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("api.port must be 0..65535: " + port);
        }
        if (acceptQueue <= 0) {
            throw new IllegalArgumentException("api.accept_queue must be > 0: " + acceptQueue);
        }
        if (maxStreams <= 0 || storageConnections <= 0) {
            throw new IllegalArgumentException("api.max_streams and api.storage_connections must be > 0: "
                + maxStreams + ", " + storageConnections);
        }
    }

    /** The default listen backlog: a burst of thousands of reconnecting clients is queued, not refused. */
    public static final int DEFAULT_ACCEPT_QUEUE = 4_096;

    /** Settings with the {@link #DEFAULT_ACCEPT_QUEUE default listen backlog}. */
    public ApiSettings(String host, int port, int maxStreams, int storageConnections, AuthSettings auth,
                       StreamSettings stream) {
        this(host, port, maxStreams, storageConnections, DEFAULT_ACCEPT_QUEUE, auth, stream);
    }

    /** Settings with 1000 streams, 8 storage connections and the default stream settings. */
    public static ApiSettings of(String host, int port, AuthSettings auth) {
        return new ApiSettings(host, port, 1000, 8, auth, StreamSettings.defaults());
    }

    /** A copy with other stream settings. */
    public ApiSettings withStream(StreamSettings settings) {
        return new ApiSettings(host, port, maxStreams, storageConnections, acceptQueue, auth, settings);
    }
}
