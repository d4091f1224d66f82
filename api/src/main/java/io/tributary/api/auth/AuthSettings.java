package io.tributary.api.auth;

import com.nimbusds.jose.jwk.JWKSet;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * How client tokens are verified: the keys (inline and/or from a JWKS URI), the accepted audiences and the longest
 * lifetime a token may have.
 *
 * @param inlineKeys  keys given in the configuration (may be empty); {@code kty: oct} keys sign development tokens
 * @param jwksUri     a JWKS document to fetch keys from, cached and refetched when a token names an unknown key id
 * @param audience    the accepted {@code aud} values; a token must name at least one
 * @param maxLifetime the longest {@code exp - iat} accepted, &gt; 0
 * @param clockSkew   the tolerance on {@code exp}, {@code iat} and {@code nbf}, &gt;= 0
 */
public record AuthSettings(JWKSet inlineKeys, Optional<URI> jwksUri, Set<String> audience, Duration maxLifetime,
                           Duration clockSkew) {

    /** PowerSync's default for the longest token lifetime. */
    public static final Duration DEFAULT_MAX_LIFETIME = Duration.ofDays(1);
    /** The clock skew tolerated between the token issuer and this process. */
    public static final Duration DEFAULT_CLOCK_SKEW = Duration.ofSeconds(60);

    public AuthSettings {
        Objects.requireNonNull(inlineKeys, "inlineKeys");
        Objects.requireNonNull(jwksUri, "jwksUri");
        audience = Set.copyOf(audience);
        if (inlineKeys.isEmpty() && jwksUri.isEmpty()) {
            throw new IllegalArgumentException("client_auth needs keys: set client_auth.jwks_uri or "
                + "client_auth.jwks.keys");
        }
        if (audience.isEmpty()) {
            throw new IllegalArgumentException("client_auth.audience is empty: name the aud value tokens carry");
        }
        if (maxLifetime.isNegative() || maxLifetime.isZero()) {
            throw new IllegalArgumentException("client_auth.max_lifetime_seconds must be > 0: " + maxLifetime);
        }
        if (clockSkew.isNegative()) {
            throw new IllegalArgumentException("clock skew must be >= 0: " + clockSkew);
        }
    }

    /** Settings with the default lifetime and clock skew. */
    public static AuthSettings of(JWKSet inlineKeys, Optional<URI> jwksUri, Set<String> audience) {
        return new AuthSettings(inlineKeys, jwksUri, audience, DEFAULT_MAX_LIFETIME, DEFAULT_CLOCK_SKEW);
    }

    /** A copy with another maximum lifetime. */
    public AuthSettings withMaxLifetime(Duration lifetime) {
        return new AuthSettings(inlineKeys, jwksUri, audience, lifetime, clockSkew);
    }
}
