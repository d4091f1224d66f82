package io.tributary.launcher.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import java.io.IOException;
import java.net.URI;
import java.text.ParseException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * How the sync API verifies client tokens ({@code client_auth.*}).
 *
 * @param jwksUri     a JWKS document to fetch keys from
 * @param keys        the inline keys ({@code client_auth.jwks.keys}); may be empty
 * @param audience    the accepted {@code aud} values, at least one
 * @param maxLifetime the longest accepted {@code exp - iat}
 */
public record ClientAuth(Optional<URI> jwksUri, JWKSet keys, Set<String> audience, Duration maxLifetime) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public ClientAuth {
        Objects.requireNonNull(jwksUri, "jwksUri");
        Objects.requireNonNull(keys, "keys");
        audience = Set.copyOf(audience);
        Objects.requireNonNull(maxLifetime, "maxLifetime");
    }

    /** Whether any key is configured (inline or by URI); without one only the embedded default serves the API. */
    public boolean hasKeys() {
        return jwksUri.isPresent() || !keys.isEmpty();
    }

    /** The inline keys of {@code json}, a JSON array of JWK objects, or empty if it is not one. */
    static Optional<JWKSet> parseKeys(String json) {
        try {
            JsonNode array = JSON.readTree(json);
            if (array == null || !array.isArray() || array.isEmpty()) {
                return Optional.empty();
            }
            List<JWK> keys = new ArrayList<>();
            for (JsonNode key : array) {
                keys.add(JWK.parse(key.toString()));
            }
            return Optional.of(new JWKSet(keys));
        } catch (IOException | ParseException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
