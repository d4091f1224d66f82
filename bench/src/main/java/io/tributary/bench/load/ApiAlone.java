package io.tributary.bench.load;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import io.tributary.api.auth.AuthSettings;
import io.tributary.api.http.ApiServer;
import io.tributary.api.http.ApiSettings;
import io.tributary.api.stream.StreamSettings;
import io.tributary.postgres.PgEndpoint;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code api} role alone in a JVM of its own, for scenario N: serves {@code STORAGE_URL} on a free port of
 * 127.0.0.1 with {@code api.max_streams} = {@code MAX_STREAMS}, accepting HS256 tokens of key {@code KEY_HEX}
 * for audience {@code AUDIENCE}. Prints {@code PORT p} on stdout once listening, then answers commands read from
 * stdin: {@code HEAP} (heap used after a full GC, bytes) and {@code STREAMS} (open streams). Stops at end of stdin.
 *
 * <p>Usage: {@code ApiAlone STORAGE_URL SOURCE_URL USER MAX_STREAMS KEY_HEX AUDIENCE}
 */
public final class ApiAlone {

    /** The key id of the bench's signing key. */
    static final String KEY_ID = "bench";

    private ApiAlone() {
    }

    public static void main(String[] args) throws Exception {
        PgEndpoint storage = new PgEndpoint(args[0], args[2], "");
        PgEndpoint source = new PgEndpoint(args[1], args[2], "");
        int maxStreams = Integer.parseInt(args[3]);
        AuthSettings auth = AuthSettings.of(new JWKSet(key(args[4])), Optional.empty(), Set.of(args[5]));
        ApiSettings settings = new ApiSettings("127.0.0.1", 0, maxStreams, 8, auth, StreamSettings.defaults());
        try (ApiServer api = ApiServer.start(settings, storage, source);
             BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            System.out.println("PORT " + api.port());
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                switch (line.trim()) {
                    case "HEAP" -> System.out.println("HEAP " + heapAfterGc());
                    case "STREAMS" -> System.out.println("STREAMS " + api.activeStreams());
                    default -> System.out.println("UNKNOWN " + line);
                }
            }
        }
        System.exit(0);
    }

    /** The HS256 key of {@code hex}, the bench's signing key. */
    public static OctetSequenceKey key(String hex) {
        return new OctetSequenceKey.Builder(HexFormat.of().parseHex(hex)).keyID(KEY_ID)
            .algorithm(com.nimbusds.jose.JWSAlgorithm.HS256).build();
    }

    private static long heapAfterGc() {
        for (int i = 0; i < 2; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
