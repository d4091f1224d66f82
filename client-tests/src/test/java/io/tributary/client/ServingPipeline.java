package io.tributary.client;

import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.api.auth.AuthSettings;
import io.tributary.api.http.ApiServer;
import io.tributary.api.http.ApiSettings;
import io.tributary.api.stream.StreamSettings;
import io.tributary.launcher.config.ApiConfig;
import io.tributary.client.auth.TestTokens;
import io.tributary.launcher.config.ConfigLoader;
import io.tributary.launcher.config.TributaryConfig;
import io.tributary.launcher.env.Environment;
import io.tributary.launcher.env.Role;
import io.tributary.launcher.env.SampleDataset;
import io.tributary.launcher.env.StartupWait;
import io.tributary.launcher.run.Pipeline;
import io.tributary.launcher.run.TestConfigFile;
import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.schema.Migrations;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.TestServices;
import io.tributary.writer.lifecycle.Deployments;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A whole pipeline in this JVM with the api role, against the test's Kafka and Postgres: the sample dataset (a todo
 * app: users, lists, todos) in a fresh source, the client tests' sync rules deployed, every role running, and the
 * sync API beside them (as {@code run} starts it) on a free port, verifying tokens with a development key. Starting
 * returns once the group is ACTIVE with a checkpoint.
 */
public final class ServingPipeline implements AutoCloseable {

    /** The sample, small: {@code USERS} users with 4 lists each and 10 todos per list. */
    public static final int USERS = 16;
    /** The client's tables and their columns (besides {@code id}), as the sample's rules sync them. */
    public static final Map<String, List<String>> CLIENT_SCHEMA = Map.of(
        "users", List.of("name", "email"),
        "lists", List.of("owner_id", "name", "created_at"),
        "todos", List.of("list_id", "owner_id", "description", "completed", "priority", "created_at"));
    /** The audience tokens carry and the API accepts. */
    public static final String AUDIENCE = "tributary-client-tests";
    /**
     * Each user syncs their lists first (priority 1), then their todos and the user directory (the default
     * priority, 3).
     */
    public static final String RULES = String.join("\n",
        "bucket_definitions:",
        "  user_lists:",
        "    priority: 1",
        "    parameters: SELECT request.user_id() AS user_id",
        "    data:",
        "      - SELECT * FROM lists WHERE owner_id = bucket.user_id",
        "  user_todos:",
        "    parameters: SELECT request.user_id() AS user_id",
        "    data:",
        "      - SELECT * FROM todos WHERE owner_id = bucket.user_id",
        "  directory:",
        "    data:",
        "      - SELECT id, name FROM users",
        "  shared_todos:",
        "    parameters: SELECT list_id FROM list_members WHERE user_id = request.user_id()",
        "    data:",
        "      - SELECT * FROM todos WHERE list_id = bucket.list_id",
        "");
    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

    private final PostgresDatabase source;
    private final PostgresDatabase storage;
    private final TestTokens tokens;
    private final Path configFile;
    private final ApiServer api;
    private final Environment environment;
    private final Pipeline pipeline;

    private ServingPipeline(PostgresDatabase source, PostgresDatabase storage, TestTokens tokens, Path configFile,
                            ApiServer api, Environment environment, Pipeline pipeline) {
        this.source = source;
        this.storage = storage;
        this.tokens = tokens;
        this.configFile = configFile;
        this.api = api;
        this.environment = environment;
        this.pipeline = pipeline;
    }

    /** Loads the sample, deploys {@link #RULES}, starts every role and waits for the first checkpoint. */
    public static ServingPipeline start(TestServices services, Path dir) throws Exception {
        return start(services, dir, RULES);
    }

    /**
     * Loads the sample, runs {@code sourceSql} (statements) in the source, deploys {@code rules}, starts every role
     * and waits for the first checkpoint.
     */
    public static ServingPipeline start(TestServices services, Path dir, String rules, String... sourceSql)
        throws Exception {
        PostgresDatabase source = services.newDatabase();
        PostgresDatabase storage = services.newDatabase();
        try (Connection c = source.connect()) {
            new SampleDataset(USERS, USERS * 4, USERS * 40).load(c);
            // Lists shared with users other than their owner: the parameter query of shared_todos reads it.
            c.createStatement().execute("CREATE TABLE public.list_members (id bigint PRIMARY KEY,"
                + " list_id bigint NOT NULL, user_id uuid NOT NULL)");
            for (String sql : sourceSql) {
                c.createStatement().execute(sql);
            }
        }
        TestTokens tokens = TestTokens.newKey("client-tests", AUDIENCE);
        Path configFile = writeConfig(dir, services, source, storage, tokens);
        TributaryConfig config = ConfigLoader.load(Optional.of(configFile), Map.of());
        try (Connection c = storage.connect()) {
            Migrations.migrate(c);
            Deployments.deploy(c, rules);
        }
        Environment environment = Environment.start(config, StartupWait.NONE);
        Pipeline pipeline;
        ApiServer api;
        try {
            pipeline = Pipeline.start(config, environment, Role.ALL, Files.createDirectories(dir.resolve("state")),
                new SimpleMeterRegistry(), StartupWait.NONE);
        } catch (Exception | Error e) {
            environment.close();
            throw e;
        }
        try {
            // As `tributary run` starts the api role beside the pipeline: api.* and client_auth.* of the
            // configuration, storage and source of the environment; on a free port of the loopback interface.
            ApiConfig settings = config.api();
            AuthSettings auth = new AuthSettings(settings.auth().keys(), settings.auth().jwksUri(),
                settings.auth().audience(), settings.auth().maxLifetime(), AuthSettings.DEFAULT_CLOCK_SKEW);
            api = ApiServer.start(new ApiSettings(settings.host(), 0, settings.maxStreams(),
                settings.storageConnections(), auth, StreamSettings.defaults()), environment.storage().toPgEndpoint(),
                environment.source().toPgEndpoint());
        } catch (Exception | Error e) {
            pipeline.close();
            environment.close();
            throw e;
        }
        ServingPipeline serving = new ServingPipeline(source, storage, tokens, configFile, api, environment,
            pipeline);
        try {
            await("the sync rules group ACTIVE with a checkpoint").atMost(START_TIMEOUT)
                .pollInterval(Duration.ofMillis(250)).until(serving::active);
            return serving;
        } catch (RuntimeException | Error e) {
            serving.close();
            throw e;
        }
    }

    /** The API's base URL, what a client's credentials name as their endpoint. */
    public String endpoint() {
        return "http://localhost:" + api.port();
    }

    /** The source database, where the tests change rows. */
    public PostgresDatabase source() {
        return source;
    }

    /** The configuration file the pipeline and the API run with ({@code tributary token --config} reads it). */
    public Path configFile() {
        return configFile;
    }

    /** The key the API verifies tokens with. */
    public TestTokens tokens() {
        return tokens;
    }

    /** The id of the {@code n}th sample user (1-based), as the sample generates it. */
    public static String user(int n) {
        return String.format("00000000-0000-4000-8000-%012x", n);
    }

    /** The ids of the sample's lists owned by {@code user}, a user's first list first. */
    public static long firstListOf(int user) {
        // The sample gives list l to user 1 + l % USERS, so user n owns n - 1, n - 1 + USERS, ... (list 0 is none).
        return user == 1 ? USERS : user - 1;
    }

    @Override
    public void close() {
        try {
            api.close();
        } finally {
            try {
                pipeline.close();
            } finally {
                environment.close();
            }
        }
    }

    private boolean active() throws Exception {
        Optional<String> problem = pipeline.problem();
        if (problem.isPresent()) {
            throw new IllegalStateException("The pipeline failed while starting: " + problem.get());
        }
        try (Connection c = storage.connect()) {
            return SyncRulesGroups.list(c).stream()
                .anyMatch(group -> group.state() == GroupState.ACTIVE && group.checkpoint().isPresent());
        }
    }

    private static Path writeConfig(Path dir, TestServices services, PostgresDatabase source,
                                    PostgresDatabase storage, TestTokens tokens) throws IOException {
        return TestConfigFile.write(dir, services, source, storage, Optional.empty(), 2, 200, List.of(
            "api:",
            "  host: 127.0.0.1",
            "client_auth:",
            "  audience: [" + AUDIENCE + "]",
            "  jwks:",
            "    keys:",
            "      - " + tokens.jwkJson()));
    }
}
