package io.tributary.ingest.capture;

import static org.awaitility.Awaitility.await;

import io.tributary.postgres.PgEndpoint;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.TestServices;
import io.tributary.topics.TopicLayout;
import io.tributary.topics.TopicNames;
import io.tributary.topics.messages.TableId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A fresh source database, slot, publication and topic prefix for one test, the ingest configuration over them,
 * and cleanup: services closed, slot dropped. Test support.
 */
final class IngestFixture implements AutoCloseable {

    static final int PARTITIONS = 3;

    final TestServices services;
    final PostgresDatabase db;
    final String slot;
    final String publication;
    final TopicNames topics;
    final TopicLayout layout;
    private final List<IngestService> started = new ArrayList<>();
    private final List<AutoCloseable> closeables = new ArrayList<>();

    private IngestFixture(TestServices services) {
        this.services = services;
        this.db = services.newDatabase();
        this.slot = services.uniqueName("slot");
        this.publication = services.uniqueName("pub");
        this.topics = TopicNames.withPrefix(services.topicPrefix());
        this.layout = TopicLayout.of(PARTITIONS, 1, (short) 1);
    }

    static IngestFixture create(TestServices services) {
        return new IngestFixture(services);
    }

    Map<String, String> kafka() {
        Map<String, String> kafka = new HashMap<>();
        services.kafkaProperties().forEach((k, v) -> kafka.put((String) k, (String) v));
        return kafka;
    }

    PgEndpoint source() {
        return PgEndpoint.of(db.jdbcUrl(), db.user(), db.password());
    }

    /** A configuration capturing {@code tables} (in schema public), refreshing tables every second. */
    IngestConfig config(String... tables) {
        return config(Map.of(), tables);
    }

    /** {@link #config(String...)} with {@code extraKafka} added to the Kafka client properties. */
    IngestConfig config(Map<String, String> extraKafka, String... tables) {
        Map<String, String> kafka = kafka();
        kafka.putAll(extraKafka);
        Set<TableId> ids = new java.util.TreeSet<>();
        for (String table : tables) {
            ids.add(TableId.of("public", table));
        }
        return IngestConfig.of(source(), slot, publication, topics, layout, kafka, TableSelection.of(ids))
            .withTableRefreshInterval(Duration.ofSeconds(1))
            .withMaxRetryBackoff(Duration.ofSeconds(1));
    }

    /** Starts a service and waits until it streams. */
    IngestService start(IngestConfig config) throws Exception {
        IngestService service = IngestService.create(config);
        started.add(service);
        service.start();
        service.awaitActive(Duration.ofSeconds(90));
        return service;
    }

    /** Starts a service without waiting. */
    IngestService startNoWait(IngestConfig config) {
        IngestService service = IngestService.create(config);
        started.add(service);
        service.start();
        return service;
    }

    ChangesTopic changes() {
        ChangesTopic changes = new ChangesTopic(services.kafkaProperties(), topics.changes(), PARTITIONS);
        closeables.add(changes);
        return changes;
    }

    /** Runs statements in one transaction. */
    void transaction(String... statements) throws Exception {
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            try (var s = c.createStatement()) {
                for (String sql : statements) {
                    s.execute(sql);
                }
            }
            c.commit();
        }
    }

    boolean slotActive() throws Exception {
        try (Connection c = db.connect();
             PreparedStatement s = c.prepareStatement("SELECT active FROM pg_replication_slots WHERE slot_name = ?")) {
            s.setString(1, slot);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    @Override
    public void close() throws Exception {
        for (IngestService service : started) {
            service.close();
        }
        for (AutoCloseable closeable : closeables) {
            closeable.close();
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> !slotActive());
        db.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '"
            + slot + "'");
    }
}
