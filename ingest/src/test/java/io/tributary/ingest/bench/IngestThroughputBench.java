package io.tributary.ingest.bench;

import io.debezium.embedded.Connect;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.format.ChangeEventFormat;
import io.tributary.embedded.EmbeddedKafka;
import io.tributary.embedded.EmbeddedPostgres;
import io.tributary.ingest.capture.IngestConfig;
import io.tributary.ingest.capture.IngestService;
import io.tributary.ingest.capture.IngestState;
import io.tributary.ingest.capture.TableSelection;
import io.tributary.ingest.capture.internals.EngineProperties;
import io.tributary.postgres.PgEndpoint;
import io.tributary.topics.TopicLayout;
import io.tributary.topics.TopicNames;
import io.tributary.topics.messages.TableId;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Ingest throughput from a WAL backlog, next to Debezium's raw drain rate of the same backlog.
 *
 * <p>Starts an embedded Postgres and Kafka, creates two slots on one database, then commits {@code updates} row
 * updates ({@code rows} rows updated {@code updates / rows} times, {@code batch} updates per transaction) so both
 * slots hold the same backlog. It then drains slot 1 with a Debezium engine whose handler does nothing (the same
 * connector settings as ingest, offsets in memory), and slot 2 with {@link IngestService} into a
 * {@code changes} topic of {@code partitions} partitions (acks=all, idempotent), one after the other, and prints
 * events per second for each (from the first event to the last; start-up time is printed apart).
 *
 * <p>Run: {@code mvn -o -q -pl ingest test-compile} then
 * {@code java -cp "$(cat ingest/target/test-classpath.txt):ingest/target/classes:ingest/target/test-classes"
 * io.tributary.ingest.bench.IngestThroughputBench [updates=1000000] [rows=100000] [batch=1000] [partitions=6]
 * [raw-first|ingest-first]},
 * with the class path written by {@code mvn -o -q -pl ingest dependency:build-classpath
 * -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test}.
 */
public final class IngestThroughputBench {

    private IngestThroughputBench() {
    }

    public static void main(String[] args) throws Exception {
        long updates = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000;
        int rows = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
        int batch = args.length > 2 ? Integer.parseInt(args[2]) : 1_000;
        int partitions = args.length > 3 ? Integer.parseInt(args[3]) : 6;
        boolean ingestFirst = args.length > 4 && "ingest-first".equals(args[4]);
        try (EmbeddedPostgres postgres = EmbeddedPostgres.start(); EmbeddedKafka kafka = EmbeddedKafka.start()) {
            postgres.createDatabase("bench");
            PgEndpoint source = PgEndpoint.of(postgres.jdbcUrl("bench"), postgres.superuser(), "");
            IngestConfig config = IngestConfig.of(source, "bench_ingest", "bench_pub", TopicNames.withPrefix("bench."),
                    TopicLayout.of(partitions, 1, (short) 1), Map.of("bootstrap.servers", kafka.bootstrapServers()),
                    TableSelection.of(Set.of(TableId.of("public", "items"))))
                .withReplicaIdentityFull(false);
            prepare(source, rows);
            long started = System.nanoTime();
            writeBacklog(source, updates, rows, batch);
            double writeSeconds = (System.nanoTime() - started) / 1e9;
            System.out.printf("backlog: %,d updates of %,d rows in %,d-update transactions, written in %.1f s%n",
                updates, rows, batch, writeSeconds);

            Rate ingest = ingestFirst ? drainIngest(config, updates) : null;
            Rate raw = drainRaw(config, updates);
            System.out.printf("debezium no-op drain: %,.0f events/s (%,d events in %.1f s, start-up %.1f s)%n",
                raw.perSecond(), raw.events(), raw.seconds(), raw.startup());
            if (!ingestFirst) {
                ingest = drainIngest(config, updates);
            }
            System.out.printf("ingest into Kafka:    %,.0f events/s (%,d events in %.1f s, start-up %.1f s,"
                + " %d partitions, acks=all)%n", ingest.perSecond(), ingest.events(), ingest.seconds(),
                ingest.startup(), partitions);
            System.out.printf("ingest / raw: %.2f%n", ingest.perSecond() / raw.perSecond());
        }
    }

    private record Rate(long events, double seconds, double startup) {
        double perSecond() {
            return events / seconds;
        }
    }

    private static void prepare(PgEndpoint source, int rows) throws Exception {
        try (Connection c = source.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE items (id int PRIMARY KEY, v bigint NOT NULL, note text, updated timestamptz)");
            s.execute("INSERT INTO items SELECT g, 0, 'item ' || g, now() FROM generate_series(1, " + rows + ") g");
            s.execute("CREATE PUBLICATION bench_pub FOR TABLE items");
            s.execute("SELECT pg_create_logical_replication_slot('bench_raw', 'pgoutput')");
            s.execute("SELECT pg_create_logical_replication_slot('bench_ingest', 'pgoutput')");
        }
    }

    private static void writeBacklog(PgEndpoint source, long updates, int rows, int batch) throws Exception {
        try (Connection c = source.connect(); Statement s = c.createStatement()) {
            long done = 0;
            while (done < updates) {
                long from = done % rows + 1;
                long count = Math.min(batch, Math.min(updates - done, rows - from + 1));
                s.execute("UPDATE items SET v = v + 1, updated = now() WHERE id BETWEEN " + from + " AND "
                    + (from + count - 1));
                done += count;
            }
        }
    }

    private static Rate drainRaw(IngestConfig config, long events) throws Exception {
        Properties props = EngineProperties.of(config);
        props.setProperty("name", "bench-raw");
        props.setProperty("slot.name", "bench_raw");
        props.setProperty("offset.storage", "org.apache.kafka.connect.storage.MemoryOffsetBackingStore");
        props.setProperty("heartbeat.interval.ms", "0");
        props.remove("heartbeat.action.query");
        AtomicLong seen = new AtomicLong();
        AtomicLong first = new AtomicLong();
        CountDownLatch done = new CountDownLatch(1);
        long started = System.nanoTime();
        DebeziumEngine<RecordChangeEvent<SourceRecord>> engine =
            DebeziumEngine.create(ChangeEventFormat.of(Connect.class)).using(props)
            .notifying((records, committer) -> {
                for (RecordChangeEvent<SourceRecord> record : records) {
                    if (record.record().value() instanceof Struct value && value.schema().field("op") != null) {
                        first.compareAndSet(0, System.nanoTime());
                        if (seen.incrementAndGet() == events) {
                            done.countDown();
                        }
                    }
                    committer.markProcessed(record);
                }
                committer.markBatchFinished();
            }).build();
        ExecutorService thread = Executors.newSingleThreadExecutor();
        thread.execute(engine);
        if (!done.await(30, TimeUnit.MINUTES)) {
            throw new IllegalStateException("Raw drain saw only " + seen.get() + " events");
        }
        long finished = System.nanoTime();
        engine.close();
        thread.shutdown();
        return new Rate(events, (finished - first.get()) / 1e9, (first.get() - started) / 1e9);
    }

    private static Rate drainIngest(IngestConfig config, long events) throws Exception {
        IngestService service = IngestService.create(config);
        long started = System.nanoTime();
        long first = 0;
        service.start();
        try {
            while (service.stats().changeEvents() < events) {
                if (first == 0 && service.stats().changeEvents() > 0) {
                    first = System.nanoTime();
                }
                if (service.state() == IngestState.FAILED) {
                    throw new IllegalStateException("Ingest failed", service.failure().get());
                }
                Thread.sleep(Duration.ofMillis(20).toMillis());
            }
            long finished = System.nanoTime();
            return new Rate(events, (finished - first) / 1e9, (first - started) / 1e9);
        } finally {
            service.close();
        }
    }
}
