package io.tributary.source.encoding;

import static org.awaitility.Awaitility.await;

import io.debezium.embedded.Connect;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.format.ChangeEventFormat;
import io.tributary.testing.PostgresDatabase;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * A real Debezium Embedded (async) engine on one test database, streaming one publication through its own slot,
 * collecting every data change record in memory. Test support only: offsets in memory, no Kafka.
 */
final class DebeziumCapture implements AutoCloseable {

    private static final Pattern URL = Pattern.compile("^jdbc:postgresql://([^:/]+)(?::(\\d+))?/([^?]+).*$");

    private final PostgresDatabase database;
    private final String slot;
    private final List<SourceRecord> records = new CopyOnWriteArrayList<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "debezium-capture");
        t.setDaemon(true);
        return t;
    });
    private final DebeziumEngine<RecordChangeEvent<SourceRecord>> engine;

    private DebeziumCapture(PostgresDatabase database, String name, String tableIncludeList,
                            Map<String, String> extraSettings) {
        this.database = database;
        this.slot = name + "_slot";
        Matcher m = URL.matcher(database.jdbcUrl());
        if (!m.matches()) {
            throw new IllegalArgumentException("Unexpected JDBC URL " + database.jdbcUrl());
        }
        Properties props = new Properties();
        props.setProperty("name", name);
        props.setProperty("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
        props.setProperty("offset.storage", "org.apache.kafka.connect.storage.MemoryOffsetBackingStore");
        props.setProperty("offset.flush.interval.ms", "1000");
        props.setProperty("database.hostname", m.group(1));
        props.setProperty("database.port", m.group(2) == null ? "5432" : m.group(2));
        props.setProperty("database.dbname", m.group(3));
        props.setProperty("database.user", database.user());
        props.setProperty("database.password", database.password());
        props.setProperty("topic.prefix", name);
        props.setProperty("plugin.name", "pgoutput");
        props.setProperty("slot.name", slot);
        props.setProperty("publication.name", name + "_pub");
        props.setProperty("publication.autocreate.mode", "filtered");
        props.setProperty("table.include.list", tableIncludeList);
        props.setProperty("snapshot.mode", "no_data");
        props.setProperty("slot.drop.on.stop", "true");
        extraSettings.forEach(props::setProperty);
        this.engine = DebeziumEngine.create(ChangeEventFormat.of(Connect.class))
            .using(props)
            .using((success, message, error) -> {
                if (!success) {
                    failure.compareAndSet(null, error == null ? new IllegalStateException(message) : error);
                }
            })
            .notifying(event -> {
                SourceRecord record = event.record();
                if (record.value() instanceof Struct) {
                    records.add(record);
                }
            })
            .build();
    }

    /** Starts an engine and returns once its replication slot is active, so every later commit is captured. */
    static DebeziumCapture start(PostgresDatabase database, String name, String tableIncludeList,
                                 Map<String, String> extraSettings) {
        DebeziumCapture capture = new DebeziumCapture(database, name, tableIncludeList, extraSettings);
        capture.executor.execute(capture.engine);
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            capture.throwIfFailed();
            return capture.slotActive();
        });
        return capture;
    }

    private boolean slotActive() throws SQLException {
        try (Connection c = database.connect();
             PreparedStatement s = c.prepareStatement(
                 "SELECT active FROM pg_replication_slots WHERE slot_name = ?")) {
            s.setString(1, slot);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    void throwIfFailed() {
        Throwable t = failure.get();
        if (t != null) {
            throw new IllegalStateException("Debezium engine failed", t);
        }
    }

    /** Waits until at least {@code count} data change records arrived and returns a copy of all of them. */
    List<SourceRecord> awaitRecords(int count, Duration timeout) {
        await().atMost(timeout).until(() -> {
            throwIfFailed();
            return records.size() >= count;
        });
        return new ArrayList<>(records);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        engine.close();
        executor.shutdown();
        if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("Debezium engine did not stop within 30 s");
        }
    }
}
