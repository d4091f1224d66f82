package io.tributary.api.http;

import io.tributary.api.auth.TokenVerifier;
import io.tributary.api.stream.CheckpointWatcher;
import io.tributary.api.stream.StoragePool;
import io.tributary.api.stream.StreamCounters;
import io.tributary.postgres.CurrentWalPosition;
import io.tributary.postgres.PgEndpoint;
import io.tributary.topics.lifecycle.Stage;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code api} role: serves the PowerSync sync protocol from bucket storage on one port (Jetty). Holds no state
 * of its own beyond caches, so any number of processes can serve behind a load balancer.
 *
 * <p>Per process: one storage connection listening for checkpoints, a fixed pool of storage connections shared by
 * the streams, one source connection for write checkpoints, and one thread per open stream (up to
 * {@link ApiSettings#maxStreams()}).
 *
 * <p>Thread-safe; {@link #close()} stops it.
 */
public final class ApiServer implements Stage {

    private static final Logger LOG = LoggerFactory.getLogger(ApiServer.class);
    private static final int SPARE_THREADS = 32;
    /** A connection without traffic for this long is closed; streams write at least every keepalive interval. */
    private static final Duration MIN_IDLE_TIMEOUT = Duration.ofSeconds(60);

    private final Server server;
    private final ServerConnector connector;
    private final CheckpointWatcher watcher;
    private final StoragePool pool;
    private final CurrentWalPosition source;
    private final SyncStreamRoute stream;
    private final ApiSettings settings;

    private ApiServer(ApiSettings settings, PgEndpoint storage, PgEndpoint sourceDb) {
        this.settings = settings;
        Clock clock = Clock.systemUTC();
        TokenVerifier verifier = new TokenVerifier(settings.auth(), clock);
        this.watcher = CheckpointWatcher.start(storage, settings.stream());
        this.pool = new StoragePool(storage, settings.storageConnections(), Duration.ofSeconds(30));
        this.source = new CurrentWalPosition(sourceDb);
        this.stream = new SyncStreamRoute(verifier, watcher, pool, settings.stream(), clock, settings.maxStreams());
        QueuedThreadPool threads = new QueuedThreadPool(settings.maxStreams() + SPARE_THREADS, 8);
        threads.setName("api");
        this.server = new Server(threads);
        this.connector = new ServerConnector(server);
        connector.setHost(settings.host());
        connector.setPort(settings.port());
        connector.setAcceptQueueSize(settings.acceptQueue());
        connector.setIdleTimeout(Math.max(MIN_IDLE_TIMEOUT.toMillis(),
            settings.stream().keepaliveInterval().multipliedBy(3).toMillis()));
        server.addConnector(connector);
        server.setHandler(new Routes(stream, new WriteCheckpointRoute(verifier, source, pool)));
        server.setStopTimeout(2_000);
    }

    /**
     * Starts serving.
     *
     * @param storage the bucket storage database
     * @param source  the source database (its WAL position makes write checkpoints)
     * @throws IllegalStateException naming the port when it cannot be bound
     */
    public static ApiServer start(ApiSettings settings, PgEndpoint storage, PgEndpoint source) {
        ApiServer api = new ApiServer(settings, storage, source);
        try {
            api.server.start();
        } catch (Exception e) {
            api.close();
            throw new IllegalStateException("The sync API cannot listen on " + settings.host() + ":" + settings.port()
                + " (api.port): " + e.getMessage(), e);
        }
        LOG.info("Sync API listening on http://{}:{}", settings.host(), api.port());
        return api;
    }

    /** The port it listens on (the bound one when configured as 0). */
    public int port() {
        return connector.getLocalPort();
    }

    /** The streams cut off so far because their client read too slowly. */
    public long slowClientsCutOff() {
        return stream.slowClientsCutOff();
    }

    /** What the sync streams of this process sent so far. */
    public StreamCounters counters() {
        return stream.counters();
    }

    /** The sync streams open now. */
    public int activeStreams() {
        return stream.activeStreams(settings.maxStreams());
    }

    @Override
    public String stageName() {
        return "the sync API";
    }

    /** Always empty: the server serves until closed; a failing request or stream fails alone. */
    @Override
    public Optional<Throwable> failure() {
        return Optional.empty();
    }

    @Override
    public void close() {
        watcher.close();
        try {
            server.stop();
        } catch (Exception e) {
            LOG.warn("Stopping the sync API server failed", e);
        }
        pool.close();
        source.close();
    }
}
