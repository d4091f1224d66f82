package io.tributary.api.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.Objects;
import java.util.Optional;

/**
 * Development tokens: HS256 JWTs signed with a shared {@code kty: oct} key of the configuration, for local runs and
 * tests. Production tokens come from the application's own auth service. Stateless and thread-safe.
 */
public final class DevelopmentTokens {

    private DevelopmentTokens() {
    }

    /** A new random HS256 key with key id {@code kid}. */
    public static OctetSequenceKey newKey(String kid) {
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        return new OctetSequenceKey.Builder(secret).keyID(kid).algorithm(JWSAlgorithm.HS256).build();
    }

    /** The first {@code kty: oct} key of {@code keys}, the one development tokens are signed with. */
    public static Optional<OctetSequenceKey> signingKey(JWKSet keys) {
        for (JWK key : keys.getKeys()) {
            if (key instanceof OctetSequenceKey oct) {
                return Optional.of(oct);
            }
        }
        return Optional.empty();
    }

    /**
     * A token for {@code userId} with audience {@code audience}, issued now and valid for {@code lifetime}.
     *
     * @throws IllegalArgumentException if the key is too short for HS256 (fewer than 256 bits)
     */
    public static String mint(OctetSequenceKey key, String audience, String userId, Duration lifetime, Instant now) {
        Objects.requireNonNull(userId, "userId");
        Instant issued = Instant.ofEpochSecond(now.getEpochSecond());
        JWTClaimsSet claims = new JWTClaimsSet.Builder().subject(userId).audience(audience)
            .issueTime(Date.from(issued)).expirationTime(Date.from(issued.plus(lifetime))).build();
        JWSHeader header = new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(key.getKeyID()).build();
        SignedJWT jwt = new SignedJWT(header, claims);
        try {
            jwt.sign(new MACSigner(key));
        } catch (JOSEException e) {
            throw new IllegalArgumentException("Cannot sign with key " + key.getKeyID() + ": " + e.getMessage(), e);
        }
        return jwt.serialize();
    }
}
