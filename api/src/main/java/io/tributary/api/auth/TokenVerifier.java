package io.tributary.api.auth;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.factories.DefaultJWSVerifierFactory;
import com.nimbusds.jose.jwk.AsymmetricJWK;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.security.Key;
import java.text.ParseException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Verifies the tokens of sync requests as PowerSync does: a signed JWT in {@code Authorization: Token <jwt>} or
 * {@code Bearer <jwt>}, signed by a configured key (matched by {@code kid}, or any key of the token's algorithm
 * when it names none), with an {@code aud} among the configured audiences, {@code sub}, {@code iat} and
 * {@code exp} present, not expired, and {@code exp - iat} at most the configured lifetime; times allow the
 * configured clock skew.
 *
 * <p>Thread-safe.
 */
public final class TokenVerifier {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DefaultJWSVerifierFactory VERIFIERS = new DefaultJWSVerifierFactory();

    private final AuthSettings settings;
    private final Optional<RemoteJwks> remote;
    private final Clock clock;

    public TokenVerifier(AuthSettings settings, Clock clock) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.remote = settings.jwksUri().map(uri -> new RemoteJwks(uri, clock));
    }

    /**
     * Verifies the token of an {@code Authorization} header value.
     *
     * @param authorization the header value, or null when the request had none
     * @throws AuthException saying what is wrong
     */
    public VerifiedToken verify(String authorization) throws AuthException {
        SignedJWT jwt = parse(authorization);
        verifySignature(jwt);
        return checkClaims(jwt);
    }

    private static SignedJWT parse(String authorization) throws AuthException {
        if (authorization == null || authorization.isBlank()) {
            throw new AuthException("Authentication required: send Authorization: Token <jwt>");
        }
        String value = authorization.strip();
        int space = value.indexOf(' ');
        String scheme = space < 0 ? "" : value.substring(0, space);
        if (!scheme.equalsIgnoreCase("Token") && !scheme.equalsIgnoreCase("Bearer")) {
            throw new AuthException("Authorization must be 'Token <jwt>' or 'Bearer <jwt>'");
        }
        try {
            return SignedJWT.parse(value.substring(space + 1).strip());
        } catch (ParseException e) {
            throw new AuthException("The token is not a signed JWT: " + e.getMessage(), e);
        }
    }

    private void verifySignature(SignedJWT jwt) throws AuthException {
        JWSHeader header = jwt.getHeader();
        List<JWK> candidates = candidates(header, settings.inlineKeys());
        if (candidates.isEmpty() && remote.isPresent()) {
            candidates = candidates(header, remote.get().keys(false));
            if (candidates.isEmpty() && header.getKeyID() != null) {
                candidates = candidates(header, remote.get().keys(true));
            }
        }
        if (candidates.isEmpty()) {
            throw new AuthException("No configured key matches the token (kid " + header.getKeyID() + ", alg "
                + header.getAlgorithm() + "): add the key to client_auth.jwks or client_auth.jwks_uri");
        }
        for (JWK key : candidates) {
            try {
                JWSVerifier verifier = VERIFIERS.createJWSVerifier(header, javaKey(key));
                if (jwt.verify(verifier)) {
                    return;
                }
            } catch (JOSEException e) {
                throw new AuthException("The token cannot be verified with key " + key.getKeyID() + ": "
                    + e.getMessage(), e);
            }
        }
        throw new AuthException("The token's signature is invalid");
    }

    private static List<JWK> candidates(JWSHeader header, JWKSet keys) {
        List<JWK> matching = new ArrayList<>();
        for (JWK key : keys.getKeys()) {
            boolean kidMatches = header.getKeyID() == null || header.getKeyID().equals(key.getKeyID());
            boolean algMatches = key.getAlgorithm() == null || key.getAlgorithm().equals(header.getAlgorithm());
            if (kidMatches && algMatches) {
                matching.add(key);
            }
        }
        return matching;
    }

    private static Key javaKey(JWK key) throws JOSEException {
        if (key instanceof OctetSequenceKey oct) {
            return oct.toSecretKey();
        }
        if (key instanceof AsymmetricJWK asymmetric) {
            return asymmetric.toPublicKey();
        }
        throw new JOSEException("Unsupported key type " + key.getKeyType());
    }

    private VerifiedToken checkClaims(SignedJWT jwt) throws AuthException {
        JWTClaimsSet claims;
        try {
            claims = jwt.getJWTClaimsSet();
        } catch (ParseException e) {
            throw new AuthException("The token's payload is not a JSON object of claims: " + e.getMessage(), e);
        }
        if (claims.getAudience() == null || claims.getAudience().stream().noneMatch(settings.audience()::contains)) {
            throw new AuthException("Unexpected audience " + claims.getAudience() + ": expected one of "
                + settings.audience());
        }
        if (claims.getSubject() == null) {
            throw new AuthException("The token has no sub claim (the user id)");
        }
        if (claims.getIssueTime() == null || claims.getExpirationTime() == null) {
            throw new AuthException("The token needs iat and exp claims");
        }
        Instant now = clock.instant();
        Instant issuedAt = claims.getIssueTime().toInstant();
        Instant expiresAt = claims.getExpirationTime().toInstant();
        if (expiresAt.plus(settings.clockSkew()).isBefore(now)) {
            throw new AuthException("The token expired at " + expiresAt);
        }
        if (issuedAt.minus(settings.clockSkew()).isAfter(now)) {
            throw new AuthException("The token is issued in the future (iat " + issuedAt + ")");
        }
        if (claims.getNotBeforeTime() != null && claims.getNotBeforeTime().toInstant().minus(settings.clockSkew())
            .isAfter(now)) {
            throw new AuthException("The token is not valid before " + claims.getNotBeforeTime().toInstant());
        }
        if (expiresAt.getEpochSecond() - issuedAt.getEpochSecond() > settings.maxLifetime().toSeconds()) {
            throw new AuthException("The token lives " + (expiresAt.getEpochSecond() - issuedAt.getEpochSecond())
                + " s, more than client_auth.max_lifetime_seconds (" + settings.maxLifetime().toSeconds() + ")");
        }
        ObjectNode payload = JSON.valueToTree(claims.toJSONObject());
        return new VerifiedToken(claims.getSubject(), payload, expiresAt);
    }
}
