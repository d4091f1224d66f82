package io.tributary.launcher.cli;

import com.nimbusds.jose.jwk.OctetSequenceKey;
import io.tributary.api.auth.DevelopmentTokens;
import io.tributary.launcher.config.ConfigException;
import io.tributary.launcher.config.TributaryConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tributary token --config FILE --user ID [--expires-in SECONDS]}: a development token for the sync API,
 * signed with the first {@code kty: oct} key of {@code client_auth.jwks.keys}, for the first audience of
 * {@code client_auth.audience}.
 */
@Command(name = "token", mixinStandardHelpOptions = true,
    description = {
        "Print a development token (HS256 JWT) for the sync API, signed with the first kty oct key of "
            + "client_auth.jwks.keys. Production tokens come from the application's auth service."})
public final class TokenCommand implements Callable<Integer> {

    @Mixin
    private ConfigOption config;

    @Option(names = "--user", required = true, paramLabel = "ID", description = "the user id (the sub claim)")
    private String user;

    @Option(names = "--expires-in", paramLabel = "SECONDS", defaultValue = "3600",
        description = "lifetime in seconds (default 3600; at most client_auth.max_lifetime_seconds)")
    private long expiresIn;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        TributaryConfig settings = config.load();
        OctetSequenceKey key = DevelopmentTokens.signingKey(settings.api().auth().keys()).orElseThrow(() ->
            new ConfigException(List.of("client_auth.jwks.keys: token needs a kty oct key (e.g. {kty: oct, alg: "
                + "HS256, kid: dev, k: <base64url secret of 32 bytes or more>}) to sign development tokens")));
        if (expiresIn <= 0 || expiresIn > settings.api().auth().maxLifetime().toSeconds()) {
            spec.commandLine().getErr().println("--expires-in must be 1.." + settings.api().auth().maxLifetime()
                .toSeconds() + " seconds (client_auth.max_lifetime_seconds)");
            return ExitCodes.BAD_INPUT;
        }
        String audience = settings.api().auth().audience().stream().sorted().findFirst().orElseThrow(() ->
            new ConfigException(List.of("client_auth.audience is empty: name the aud value tokens carry")));
        try {
            spec.commandLine().getOut().println(DevelopmentTokens.mint(key, audience, user,
                Duration.ofSeconds(expiresIn), Instant.now()));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(List.of("client_auth.jwks.keys: " + e.getMessage()));
        }
        return ExitCodes.OK;
    }
}
