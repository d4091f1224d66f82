package io.tributary.api;

import static org.awaitility.Awaitility.await;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import io.tributary.api.auth.AuthSettings;
import io.tributary.api.auth.DevelopmentTokens;
import io.tributary.api.http.ApiServer;
import io.tributary.api.http.ApiSettings;
import io.tributary.api.stream.StreamSettings;
import io.tributary.postgres.PgEndpoint;
import io.tributary.storage.checkpoint.Checkpoints;
import io.tributary.storage.groups.Checkpoint;
import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.progress.LoadedTables;
import io.tributary.storage.schema.Migrations;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.TestServices;
import io.tributary.topics.TopicLayout;
import io.tributary.topics.TopicNames;
import io.tributary.topics.messages.Barrier;
import io.tributary.topics.provision.TopicProvisioner;
import io.tributary.writer.StorageWriter;
import io.tributary.writer.WriterConfig;
import io.tributary.writer.WriterTuning;
import java.net.URI;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;

/**
 * One API test's world: a storage database with an ACTIVE group fed by a real storage writer from a rows topic
 * the test writes, and an API server on a free port with a development HS256 key.
 */
final class ApiFixture implements AutoCloseable {

    static final String AUDIENCE = "tributary-test";
    static final int PARTITIONS = 2;
    /** The tables the API tests write rows of: loaded, as if snapshotted before the first epoch. */
    static final List<String> TABLES =
        List.of("public.lists", "public.todos", "public.settings", "public.list_members");

    final PostgresDatabase db;
    final long groupId;
    final RowsWriter rows;
    final OctetSequenceKey key = DevelopmentTokens.newKey("dev");
    private final StorageWriter writer;
    private ApiServer api;

    private ApiFixture(PostgresDatabase db, long groupId, RowsWriter rows, StorageWriter writer) {
        this.db = db;
        this.groupId = groupId;
        this.rows = rows;
        this.writer = writer;
    }

    static ApiFixture create(TestServices services, String rules) throws Exception {
        PostgresDatabase db = services.newDatabase();
        long groupId;
        try (Connection c = db.connect()) {
            Migrations.migrate(c);
            groupId = SyncRulesGroups.create(c, rules).id();
            LoadedTables.markLoaded(c, groupId, PARTITIONS, TABLES);
            SyncRulesGroups.markPlanned(c, List.of(groupId));
        }
        TopicNames names = TopicNames.withPrefix(services.topicPrefix());
        try (Admin admin = Admin.create(services.kafkaProperties())) {
            TopicProvisioner.ensure(admin, names, TopicLayout.of(PARTITIONS, 1, (short) 1));
        }
        WriterConfig config = WriterConfig.of(services.kafkaProperties(), names, storage(db), groupId, rules, 500, 1)
            .withTuning(WriterTuning.defaults().withCheckpointInterval(Duration.ofMillis(50)));
        StorageWriter writer = StorageWriter.start(config);
        return new ApiFixture(db, groupId, new RowsWriter(services, names, PARTITIONS), writer);
    }

    static PgEndpoint storage(PostgresDatabase db) {
        return new PgEndpoint(db.jdbcUrl(), db.user(), db.password());
    }

    /** Starts the API with {@code stream} settings (the group must be ACTIVE, see {@link #activate()}). */
    ApiServer startApi(StreamSettings stream) {
        return startApi(stream, storage(db));
    }

    /** Starts the API with {@code stream} settings, reaching storage through {@code storage}. */
    ApiServer startApi(StreamSettings stream, PgEndpoint storage) {
        AuthSettings auth = AuthSettings.of(new JWKSet(key), Optional.<URI>empty(), Set.of(AUDIENCE));
        api = ApiServer.start(ApiSettings.of("127.0.0.1", 0, auth).withStream(stream), storage, storage(db));
        return api;
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + api.port() + path);
    }

    String token(String user) {
        return token(user, Duration.ofHours(1));
    }

    String token(String user, Duration lifetime) {
        return DevelopmentTokens.mint(key, AUDIENCE, user, lifetime, Instant.now());
    }

    /** A token for {@code user} valid for an hour that also carries the claims of the JSON object {@code claims}. */
    @SuppressWarnings("unchecked")
    String token(String user, String claims) throws Exception {
        Instant issued = Instant.ofEpochSecond(Instant.now().getEpochSecond());
        com.nimbusds.jwt.JWTClaimsSet.Builder builder = new com.nimbusds.jwt.JWTClaimsSet.Builder().subject(user)
            .audience(AUDIENCE).issueTime(java.util.Date.from(issued))
            .expirationTime(java.util.Date.from(issued.plus(Duration.ofHours(1))));
        new com.fasterxml.jackson.databind.ObjectMapper().readValue(claims, java.util.Map.class)
            .forEach((name, value) -> builder.claim((String) name, value));
        com.nimbusds.jwt.SignedJWT jwt = new com.nimbusds.jwt.SignedJWT(new com.nimbusds.jose.JWSHeader.Builder(
            com.nimbusds.jose.JWSAlgorithm.HS256).keyID(key.getKeyID()).build(), builder.build());
        jwt.sign(new com.nimbusds.jose.crypto.MACSigner(key));
        return jwt.serialize();
    }

    /** Ends the epoch and waits until the group's checkpoint covers it; returns the checkpoint. */
    Checkpoint checkpoint() throws Exception {
        return checkpoint(rows.barrier());
    }

    /** Waits until the group's checkpoint reaches {@code barrier}'s epoch. */
    Checkpoint checkpoint(Barrier barrier) throws Exception {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).until(() -> {
            if (writer.failure().isPresent()) {
                throw new AssertionError("Writer failed", writer.failure().get());
            }
            Optional<Checkpoint> cp = current();
            return cp.isPresent() && cp.get().epoch() >= barrier.epoch();
        });
        return current().orElseThrow();
    }

    Optional<Checkpoint> current() throws Exception {
        try (Connection c = db.connect()) {
            return Checkpoints.current(c, groupId);
        }
    }

    /** Moves the group to ACTIVE, as the launcher's lifecycle does once its first checkpoint is published. */
    void activate() throws Exception {
        try (Connection c = db.connect()) {
            SyncRulesGroups.transition(c, groupId, GroupState.PROCESSING, GroupState.ACTIVE);
        }
    }

    /** The checksum (signed 32-bit) and count of {@code bucket}'s ops up to {@code opId}, straight from storage. */
    long[] storedSum(String bucket, long opId) throws Exception {
        try (Connection c = db.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT coalesce(sum(checksum), 0) % 4294967296, count(*)"
                 + " FROM tributary.bucket_data WHERE group_id = " + groupId + " AND bucket = '" + bucket
                 + "' AND op_id <= " + opId)) {
            rs.next();
            return new long[] {(int) rs.getLong(1), rs.getLong(2)};
        }
    }

    /** The op ids of {@code bucket} up to {@code opId}, ascending, straight from storage. */
    List<Long> opIds(String bucket, long opId) throws Exception {
        List<Long> ids = new java.util.ArrayList<>();
        try (Connection c = db.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT op_id FROM tributary.bucket_data WHERE group_id = " + groupId
                 + " AND bucket = '" + bucket.replace("'", "''") + "' AND op_id <= " + opId + " ORDER BY op_id")) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        return ids;
    }

    /** The source's current WAL position as a number. */
    long walPosition() throws Exception {
        try (Connection c = db.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Override
    public void close() throws Exception {
        if (api != null) {
            api.close();
        }
        writer.close();
        rows.close();
    }
}
