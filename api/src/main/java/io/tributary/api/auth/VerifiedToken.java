package io.tributary.api.auth;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.Objects;

/**
 * A token whose signature, audience and lifetime were verified.
 *
 * @param userId    the {@code sub} claim: {@code request.user_id()} of the sync rules
 * @param claims    the whole payload (copied): {@code request.jwt()} and the {@code parameters} claim
 * @param expiresAt the {@code exp} claim
 */
public record VerifiedToken(String userId, ObjectNode claims, Instant expiresAt) {

    public VerifiedToken {
        Objects.requireNonNull(userId, "userId");
        claims = Objects.requireNonNull(claims, "claims").deepCopy();
        Objects.requireNonNull(expiresAt, "expiresAt");
    }

    @Override
    public ObjectNode claims() {
        return claims.deepCopy();
    }
}
