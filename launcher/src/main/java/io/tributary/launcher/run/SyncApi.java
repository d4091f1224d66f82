package io.tributary.launcher.run;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import io.tributary.api.auth.AuthSettings;
import io.tributary.api.auth.DevelopmentTokens;
import io.tributary.api.http.ApiServer;
import io.tributary.api.http.ApiSettings;
import io.tributary.api.stream.StreamSettings;
import io.tributary.launcher.config.ApiConfig;
import io.tributary.launcher.config.ConfigException;
import io.tributary.launcher.env.Environment;
import io.tributary.launcher.env.Role;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the sync API of a {@code run} when its role includes it and {@code api.port} is not 0. Tokens are verified
 * with the configured {@code client_auth} keys; without any, the embedded default (an embedded source) uses a
 * fresh development HS256 key and prints a token for the sample user, and any other configuration leaves the API
 * off ({@code all}) or fails ({@code --role api}).
 */
final class SyncApi {

    /** A user of the embedded default's sample dataset. */
    static final String SAMPLE_USER = "00000000-0000-4000-8000-000000000001";
    private static final Logger LOG = LoggerFactory.getLogger(SyncApi.class);
    private static final Duration SAMPLE_TOKEN_LIFETIME = Duration.ofHours(12);

    private SyncApi() {
    }

    /** The started server, or null (which try-with-resources skips) when the API is off. */
    static ApiServer start(ApiConfig config, Environment environment, Role role, PrintWriter out) {
        if (!role.parts().contains(Role.Part.API) || config.port() == 0) {
            return null;
        }
        JWKSet keys = config.auth().keys();
        OctetSequenceKey developmentKey = null;
        if (!config.auth().hasKeys()) {
            if (!environment.embeddedSource()) {
                if (role == Role.API) {
                    throw new ConfigException(List.of("client_auth: the sync API needs the keys client tokens are "
                        + "signed with: set client_auth.jwks_uri or client_auth.jwks.keys (or api.port: 0)"));
                }
                LOG.info("The sync API is off: client_auth names no keys (set client_auth.jwks_uri or "
                    + "client_auth.jwks.keys to serve clients)");
                return null;
            }
            developmentKey = DevelopmentTokens.newKey("development");
            keys = new JWKSet(developmentKey);
        }
        AuthSettings auth = new AuthSettings(keys, config.auth().jwksUri(), config.auth().audience(),
            config.auth().maxLifetime(), AuthSettings.DEFAULT_CLOCK_SKEW);
        ApiSettings settings = new ApiSettings(config.host(), config.port(), config.maxStreams(),
            config.storageConnections(), config.acceptQueue(), auth, StreamSettings.defaults());
        ApiServer server = ApiServer.start(settings, environment.storage().toPgEndpoint(),
            environment.source().toPgEndpoint());
        out.println("Sync API: http://localhost:" + server.port() + " (POST /sync/stream)");
        if (developmentKey != null) {
            String audience = config.auth().audience().stream().sorted().findFirst().orElseThrow();
            String token = DevelopmentTokens.mint(developmentKey, audience, SAMPLE_USER, SAMPLE_TOKEN_LIFETIME,
                Instant.now());
            out.println("Development token for sample user " + SAMPLE_USER + " (valid "
                + SAMPLE_TOKEN_LIFETIME.toHours() + " h): " + token);
        }
        out.flush();
        return server;
    }
}
