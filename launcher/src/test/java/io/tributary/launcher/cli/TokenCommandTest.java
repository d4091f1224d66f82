package io.tributary.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import io.tributary.api.auth.AuthSettings;
import io.tributary.api.auth.DevelopmentTokens;
import io.tributary.api.auth.TokenVerifier;
import io.tributary.api.auth.VerifiedToken;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokenCommandTest {

    @TempDir
    Path dir;

    private final OctetSequenceKey key = DevelopmentTokens.newKey("dev");

    @Test
    void mintsATokenTheConfiguredKeyVerifies() throws Exception {
        CommandLineHarness run = CommandLineHarness.run("token", "--config", config().toString(), "--user", "u7",
            "--expires-in", "600");

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.OK);
        VerifiedToken token = new TokenVerifier(AuthSettings.of(new JWKSet(key), Optional.<URI>empty(),
            Set.of("app")), Clock.systemUTC()).verify("Token " + run.out().strip());
        assertThat(token.userId()).isEqualTo("u7");
        assertThat(Duration.between(Instant.now(), token.expiresAt()).toSeconds()).isBetween(590L, 600L);
    }

    @Test
    void aLifetimeAboveTheMaximumIsBadInput() throws Exception {
        CommandLineHarness run = CommandLineHarness.run("token", "--config", config().toString(), "--user", "u7",
            "--expires-in", "90000");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.err()).contains("client_auth.max_lifetime_seconds");
    }

    @Test
    void withoutAnOctKeyItSaysWhichKeyToAdd() throws Exception {
        Path config = Files.writeString(dir.resolve("empty.yaml"), "client_auth:\n  audience: app\n");

        CommandLineHarness run = CommandLineHarness.run("token", "--config", config.toString(), "--user", "u7");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.err()).contains("client_auth.jwks.keys").contains("kty oct");
    }

    private Path config() throws Exception {
        return Files.writeString(dir.resolve("tributary.yaml"), "client_auth:\n  audience: app\n  jwks:\n    keys:\n"
            + "      - kty: oct\n        alg: HS256\n        kid: dev\n        k: " + key.getKeyValue() + "\n");
    }
}
