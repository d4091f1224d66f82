package io.tributary.bench.debezium;

import io.debezium.embedded.Connect;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.format.ChangeEventFormat;
import io.tributary.postgres.PgEndpoint;
import io.tributary.source.encoding.DebeziumDecodingSettings;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * One Debezium Embedded Postgres connector run for a baseline: pgoutput, offsets in memory (every run starts
 * fresh), the source module's decoding settings (as ingest configures them) and otherwise Debezium's defaults.
 * The handler counts a latch down when it has seen what it waits for; {@link #close()} stops the engine.
 */
final class EngineRun implements AutoCloseable {

    private final DebeziumEngine<RecordChangeEvent<SourceRecord>> engine;
    private final ExecutorService thread;
    private final CountDownLatch done;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final AtomicReference<Throwable> error = new AtomicReference<>();

    private EngineRun(Properties props, DebeziumEngine.ChangeConsumer<RecordChangeEvent<SourceRecord>> handler,
                      CountDownLatch done) {
        this.done = done;
        this.engine = DebeziumEngine.create(ChangeEventFormat.of(Connect.class))
            .using(props)
            .using((success, message, failure) -> {
                if (!success) {
                    error.compareAndSet(null, failure != null ? failure : new IllegalStateException(message));
                }
                stopped.countDown();
            })
            .notifying(handler)
            .build();
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "bench-debezium");
            t.setDaemon(true);
            return t;
        });
    }

    /** Base properties of a run named {@code name} (slot, publication and topic prefix) on {@code source}. */
    static Properties properties(String name, PgEndpoint source) {
        Properties props = new Properties();
        props.setProperty("name", name);
        props.setProperty("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
        props.setProperty("offset.storage", "org.apache.kafka.connect.storage.MemoryOffsetBackingStore");
        props.setProperty("offset.flush.interval.ms", "60000");
        props.setProperty("database.hostname", source.host());
        props.setProperty("database.port", Integer.toString(source.port()));
        props.setProperty("database.dbname", source.database());
        props.setProperty("database.user", source.user());
        props.setProperty("database.password", source.password());
        props.setProperty("topic.prefix", name);
        props.setProperty("plugin.name", "pgoutput");
        props.setProperty("slot.name", name);
        props.setProperty("publication.name", name);
        props.setProperty("schema.history.internal", "io.debezium.relational.history.MemorySchemaHistory");
        DebeziumDecodingSettings.properties().forEach(props::setProperty);
        return props;
    }

    /**
     * Starts the engine with {@code props}; {@code handler} counts {@code done} down once it has seen everything it
     * waits for.
     */
    static EngineRun start(Properties props, DebeziumEngine.ChangeConsumer<RecordChangeEvent<SourceRecord>> handler,
                           CountDownLatch done) {
        EngineRun run = new EngineRun(props, handler, done);
        run.thread.execute(run.engine);
        return run;
    }

    /** Waits for {@code done}; empty on time, else what stopped the engine or that it timed out. */
    Optional<String> finished(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (done.await(100, TimeUnit.MILLISECONDS)) {
                return Optional.empty();
            }
            if (stopped.getCount() == 0) {
                return Optional.of("engine stopped: " + Optional.ofNullable(error.get()).map(Throwable::toString)
                    .orElse("without error"));
            }
        }
        return Optional.of("TIMEOUT");
    }

    /** The {@code op} of a change record ("r" snapshot read, "c", "u", "d"), empty for other records. */
    static Optional<String> op(SourceRecord record) {
        if (record.value() instanceof Struct value && value.schema().field("op") != null) {
            return Optional.ofNullable(value.getString("op"));
        }
        return Optional.empty();
    }

    /** Drops the slot (once no longer active, for up to 30 s) and the publication named {@code name}. */
    static void dropSlotAndPublication(PgEndpoint source, String name) throws SQLException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        try (Connection c = source.connect(); Statement s = c.createStatement()) {
            while (true) {
                try (var rs = s.executeQuery("SELECT active FROM pg_replication_slots WHERE slot_name = '"
                    + name + "'")) {
                    if (!rs.next()) {
                        break;
                    }
                    if (!rs.getBoolean(1) || System.nanoTime() > deadline) {
                        s.execute("SELECT pg_drop_replication_slot('" + name + "')");
                        break;
                    }
                }
                LockSupport.parkNanos(Duration.ofMillis(200).toNanos());
            }
            s.execute("DROP PUBLICATION IF EXISTS " + name);
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        engine.close();
        thread.shutdown();
        thread.awaitTermination(60, TimeUnit.SECONDS);
    }
}
