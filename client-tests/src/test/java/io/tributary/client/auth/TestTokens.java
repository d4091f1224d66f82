package io.tributary.client.auth;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The app's auth service in the client tests: HS256 JWTs signed with a shared {@code kty: oct} key, the key the
 * API is configured with ({@link #jwk()}), or another one for tokens the API must refuse. Immutable; thread-safe.
 *
 * @param kid the key id tokens name in their header
 * @param secret the HMAC key, 32 bytes
 * @param audience the {@code aud} tokens carry
 */
public record TestTokens(String kid, byte[] secret, String audience) {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

    /** A new random key. */
    public static TestTokens newKey(String kid, String audience) {
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        return new TestTokens(kid, secret, audience);
    }

    /** The key as a JWK ({@code kty: oct}, {@code alg: HS256}), JSON text. */
    public String jwkJson() {
        return JSON.createObjectNode().put("kty", "oct").put("alg", "HS256").put("kid", kid)
            .put("k", BASE64URL.encodeToString(secret)).toString();
    }

    /** A token for {@code userId} issued now and valid for an hour. */
    public String token(String userId) {
        return token(userId, Duration.ofHours(1));
    }

    /** A token for {@code userId} issued now and valid for {@code lifetime} (whole seconds). */
    public String token(String userId, Duration lifetime) {
        Instant now = Instant.now();
        return token(userId, now, now.plus(lifetime));
    }

    /** A token for {@code userId} that expired a while ago (issued two hours ago, valid for an hour). */
    public String expiredToken(String userId) {
        Instant now = Instant.now();
        return token(userId, now.minus(Duration.ofHours(2)), now.minus(Duration.ofHours(1)));
    }

    private String token(String userId, Instant issued, Instant expires) {
        ObjectNode header = JSON.createObjectNode().put("alg", "HS256").put("typ", "JWT").put("kid", kid);
        ObjectNode claims = JSON.createObjectNode().put("sub", userId).put("aud", audience)
            .put("iat", issued.getEpochSecond()).put("exp", expires.getEpochSecond());
        String signingInput = encode(header) + "." + encode(claims);
        return signingInput + "." + BASE64URL.encodeToString(hmac(signingInput));
    }

    private byte[] hmac(String signingInput) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return mac.doFinal(signingInput.getBytes(StandardCharsets.US_ASCII));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is unavailable in this JVM", e);
        }
    }

    private static String encode(ObjectNode json) {
        return BASE64URL.encodeToString(json.toString().getBytes(StandardCharsets.UTF_8));
    }
}
