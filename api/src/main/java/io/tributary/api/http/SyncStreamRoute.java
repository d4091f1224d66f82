package io.tributary.api.http;

import io.tributary.api.auth.AuthException;
import io.tributary.api.auth.TokenVerifier;
import io.tributary.api.auth.VerifiedToken;
import io.tributary.api.protocol.ProtocolException;
import io.tributary.api.protocol.SyncRequest;
import io.tributary.api.stream.CheckpointWatcher;
import io.tributary.api.stream.SlowClientException;
import io.tributary.api.stream.StoragePool;
import io.tributary.api.stream.StreamCounters;
import io.tributary.api.stream.StreamSettings;
import io.tributary.api.stream.SyncSession;
import java.io.IOException;
import java.io.InputStream;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /sync/stream}: verifies the token, parses the request and runs a {@link SyncSession} on the request's
 * thread, writing NDJSON lines, or BSON documents when the request's {@code Accept} header prefers them
 * ({@link ResponseFormat}; a BSON stream always carries each row as its JSON text, as {@code raw_data} asks, the only
 * form the clients that read BSON take). Failures before the first line are JSON errors (401 bad token, 400 bad
 * request, among them {@code streams} that name a stream the served rules do not define, 503 too many streams);
 * later ones end the stream (the client reconnects and resumes).
 *
 * <p>Thread-safe.
 */
final class SyncStreamRoute {

    private static final Logger LOG = LoggerFactory.getLogger(SyncStreamRoute.class);
    private static final int MAX_BODY_BYTES = 4 * 1024 * 1024;

    private final TokenVerifier verifier;
    private final CheckpointWatcher watcher;
    private final StoragePool pool;
    private final StreamSettings settings;
    private final Clock clock;
    private final Semaphore streams;
    private final AtomicLong slowClientsCutOff = new AtomicLong();
    private final StreamCounters counters = new StreamCounters();

    SyncStreamRoute(TokenVerifier verifier, CheckpointWatcher watcher, StoragePool pool, StreamSettings settings,
                    Clock clock, int maxStreams) {
        this.verifier = verifier;
        this.watcher = watcher;
        this.pool = pool;
        this.settings = settings;
        this.clock = clock;
        this.streams = new Semaphore(maxStreams);
    }

    /** The streams cut off so far because their client read too slowly. */
    long slowClientsCutOff() {
        return slowClientsCutOff.get();
    }

    /** What the streams sent. */
    StreamCounters counters() {
        return counters;
    }

    /** The streams running now. */
    int activeStreams(int maxStreams) {
        return maxStreams - streams.availablePermits();
    }

    void handle(Request request, Response response, Callback callback) throws IOException {
        VerifiedToken token;
        final SyncRequest sync;
        ResponseFormat format = ResponseFormat.negotiate(request.getHeaders().get(HttpHeader.ACCEPT));
        try {
            token = verifier.verify(request.getHeaders().get(HttpHeader.AUTHORIZATION));
            SyncRequest parsed = SyncRequest.parse(body(request));
            sync = format == ResponseFormat.BSON ? parsed.withRawData() : parsed;
            Optional<String> unserved = watcher.current()
                .flatMap(served -> sync.streams().problemWith(served.group().rules().definitionNames()));
            if (unserved.isPresent()) {
                throw new ProtocolException(unserved.get());
            }
        } catch (AuthException e) {
            JsonResponses.error(response, callback, 401, "PSYNC_S2101", e.getMessage());
            return;
        } catch (ProtocolException e) {
            JsonResponses.error(response, callback, 400, "PSYNC_S2001", e.getMessage());
            return;
        }
        if (!streams.tryAcquire()) {
            JsonResponses.error(response, callback, 503, "PSYNC_S2304", "This api process serves its maximum of "
                + "streams (api.max_streams); retry later or add api processes");
            return;
        }
        try {
            response.setStatus(200);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, format.contentType());
            response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
            ResponseSink sink = new ResponseSink(response, settings.writeTimeout());
            new SyncSession(watcher, pool, settings, clock, token, sync, format.wire(), sink, counters).run();
            sink.drain();
            response.write(true, null, callback);
        } catch (SlowClientException e) {
            slowClientsCutOff.incrementAndGet();
            LOG.info("Sync stream of user {} cut off: {}", token.userId(), e.getMessage());
            callback.failed(e);
        } catch (IOException e) {
            LOG.debug("Sync stream of user {} ended: the client went away ({})", token.userId(), e.toString());
            callback.failed(e);
        } catch (SQLException e) {
            LOG.warn("Sync stream of user {} ended: storage failed", token.userId(), e);
            callback.failed(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            callback.failed(e);
        } finally {
            streams.release();
        }
    }

    private static byte[] body(Request request) throws ProtocolException, IOException {
        try (InputStream in = Content.Source.asInputStream(request)) {
            byte[] body = in.readNBytes(MAX_BODY_BYTES + 1);
            if (body.length > MAX_BODY_BYTES) {
                throw new ProtocolException("The request body is larger than " + MAX_BODY_BYTES + " bytes");
            }
            return body;
        }
    }
}
