package io.tributary.api.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TokenVerifierTest {

    private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    private final OctetSequenceKey key = DevelopmentTokens.newKey("dev");
    private final TokenVerifier verifier = new TokenVerifier(settings(new JWKSet(key)), CLOCK);

    private static AuthSettings settings(JWKSet keys) {
        return AuthSettings.of(keys, Optional.<URI>empty(), Set.of("app"));
    }

    @Test
    void aDevelopmentTokenVerifiesWithEitherScheme() throws Exception {
        String token = DevelopmentTokens.mint(key, "app", "u1", Duration.ofMinutes(5), NOW);
        VerifiedToken verified = verifier.verify("Token " + token);
        assertThat(verified.userId()).isEqualTo("u1");
        assertThat(verified.expiresAt()).isEqualTo(NOW.plus(Duration.ofMinutes(5)));
        assertThat(verified.claims().get("sub").asText()).isEqualTo("u1");
        assertThat(verifier.verify("Bearer " + token).userId()).isEqualTo("u1");
    }

    @Test
    void theParametersClaimReachesTheClaims() throws Exception {
        String token = sign(key, claims().claim("parameters", Map.of("org", "o1")).build());
        assertThat(verifier.verify("Token " + token).claims().at("/parameters/org").asText()).isEqualTo("o1");
    }

    @Test
    void aMissingHeaderIsRejected() {
        assertThatThrownBy(() -> verifier.verify(null)).isInstanceOf(AuthException.class)
            .hasMessageContaining("Authentication required");
        assertThatThrownBy(() -> verifier.verify("Basic abc")).isInstanceOf(AuthException.class)
            .hasMessageContaining("'Token <jwt>'");
    }

    @Test
    void aTokenOfAnotherKeyIsRejected() {
        OctetSequenceKey other = new OctetSequenceKey.Builder(DevelopmentTokens.newKey("dev").toByteArray())
            .keyID("dev").algorithm(JWSAlgorithm.HS256).build();
        String token = DevelopmentTokens.mint(other, "app", "u1", Duration.ofMinutes(5), NOW);
        assertThatThrownBy(() -> verifier.verify("Token " + token)).isInstanceOf(AuthException.class)
            .hasMessageContaining("signature is invalid");
    }

    @Test
    void anUnknownKeyIdIsRejectedNamingIt() {
        OctetSequenceKey other = DevelopmentTokens.newKey("other");
        String token = DevelopmentTokens.mint(other, "app", "u1", Duration.ofMinutes(5), NOW);
        assertThatThrownBy(() -> verifier.verify("Token " + token)).isInstanceOf(AuthException.class)
            .hasMessageContaining("kid other");
    }

    @Test
    void aWrongAudienceIsRejected() {
        String token = DevelopmentTokens.mint(key, "elsewhere", "u1", Duration.ofMinutes(5), NOW);
        assertThatThrownBy(() -> verifier.verify("Token " + token)).isInstanceOf(AuthException.class)
            .hasMessageContaining("audience");
    }

    @Test
    void anExpiredTokenIsRejectedAfterTheClockSkew() throws Exception {
        String withinSkew = DevelopmentTokens.mint(key, "app", "u1", Duration.ofMinutes(5),
            NOW.minus(Duration.ofMinutes(5)).minusSeconds(30));
        assertThat(verifier.verify("Token " + withinSkew).userId()).isEqualTo("u1");
        String expired = DevelopmentTokens.mint(key, "app", "u1", Duration.ofMinutes(5),
            NOW.minus(Duration.ofMinutes(5)).minusSeconds(61));
        assertThatThrownBy(() -> verifier.verify("Token " + expired)).isInstanceOf(AuthException.class)
            .hasMessageContaining("expired");
    }

    @Test
    void aTokenLivingLongerThanTheMaximumIsRejected() {
        String token = DevelopmentTokens.mint(key, "app", "u1", Duration.ofDays(2), NOW);
        assertThatThrownBy(() -> verifier.verify("Token " + token)).isInstanceOf(AuthException.class)
            .hasMessageContaining("max_lifetime_seconds");
    }

    @Test
    void subIatAndExpAreRequired() {
        String noSub = sign(key, new JWTClaimsSet.Builder().audience("app").issueTime(Date.from(NOW))
            .expirationTime(Date.from(NOW.plusSeconds(60))).build());
        assertThatThrownBy(() -> verifier.verify("Token " + noSub)).hasMessageContaining("sub");
        String noIat = sign(key, new JWTClaimsSet.Builder().subject("u1").audience("app")
            .expirationTime(Date.from(NOW.plusSeconds(60))).build());
        assertThatThrownBy(() -> verifier.verify("Token " + noIat)).hasMessageContaining("iat and exp");
    }

    @Test
    void anRsaKeyVerifiesByKeyId() throws Exception {
        RSAKey rsa = new RSAKeyGenerator(2048).keyID("rsa1").generate();
        TokenVerifier rsaVerifier = new TokenVerifier(settings(new JWKSet(rsa.toPublicJWK())), CLOCK);
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("rsa1").build(),
            claims().build());
        jwt.sign(new RSASSASigner(rsa));
        assertThat(rsaVerifier.verify("Token " + jwt.serialize()).userId()).isEqualTo("u1");
    }

    private static JWTClaimsSet.Builder claims() {
        return new JWTClaimsSet.Builder().subject("u1").audience("app").issueTime(Date.from(NOW))
            .expirationTime(Date.from(NOW.plusSeconds(300)));
    }

    private static String sign(OctetSequenceKey key, JWTClaimsSet claims) {
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(key.getKeyID()).build(),
                claims);
            jwt.sign(new MACSigner(key));
            return jwt.serialize();
        } catch (com.nimbusds.jose.JOSEException e) {
            throw new IllegalStateException(e);
        }
    }
}
