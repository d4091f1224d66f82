package io.tributary.api.auth;

import com.nimbusds.jose.jwk.JWKSet;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The keys of a JWKS URI, cached. The document is fetched on first use, again when it is older than
 * {@link #MAX_AGE}, and again when a token names a key id it lacks (a key rotation), but at most once per
 * {@link #MIN_REFETCH_INTERVAL} so tokens with made-up key ids cannot make this process hammer the issuer.
 *
 * <p>Thread-safe: fetches are serialized.
 */
final class RemoteJwks {

    /** How long a fetched document is used before it is fetched again. */
    static final Duration MAX_AGE = Duration.ofMinutes(5);
    /** The shortest time between two fetches. */
    static final Duration MIN_REFETCH_INTERVAL = Duration.ofSeconds(10);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final URI uri;
    private final Clock clock;
    private final HttpClient http;
    private JWKSet keys;
    private Instant fetchedAt = Instant.MIN;

    RemoteJwks(URI uri, Clock clock) {
        this.uri = Objects.requireNonNull(uri, "uri");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.http = HttpClient.newBuilder().connectTimeout(TIMEOUT).followRedirects(HttpClient.Redirect.NORMAL)
            .build();
    }

    /**
     * The cached keys, fetched first if there are none yet, they are older than {@link #MAX_AGE}, or
     * {@code refetch} is set and the last fetch is older than {@link #MIN_REFETCH_INTERVAL}.
     *
     * @throws AuthException if the document cannot be fetched or parsed (and no keys are cached)
     */
    synchronized JWKSet keys(boolean refetch) throws AuthException {
        Instant now = clock.instant();
        boolean stale = keys == null || fetchedAt.plus(MAX_AGE).isBefore(now);
        boolean mayRefetch = fetchedAt.plus(MIN_REFETCH_INTERVAL).isBefore(now);
        if (stale || (refetch && mayRefetch)) {
            try {
                keys = fetch();
                fetchedAt = now;
            } catch (AuthException e) {
                fetchedAt = now;
                if (keys == null) {
                    throw e;
                }
            }
        }
        return keys;
    }

    private JWKSet fetch() throws AuthException {
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(TIMEOUT).header("Accept", "application/json")
            .GET().build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new AuthException("client_auth.jwks_uri " + uri + " answered HTTP " + response.statusCode());
            }
            return JWKSet.parse(response.body());
        } catch (IOException | ParseException e) {
            throw new AuthException("client_auth.jwks_uri " + uri + " gave no JWKS document: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AuthException("Interrupted while fetching client_auth.jwks_uri " + uri, e);
        }
    }
}
