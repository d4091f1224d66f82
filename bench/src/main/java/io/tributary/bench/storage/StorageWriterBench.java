package io.tributary.bench.storage;

import io.tributary.embedded.EmbeddedKafka;
import io.tributary.embedded.EmbeddedPostgres;
import io.tributary.postgres.PgEndpoint;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.schema.Migrations;
import io.tributary.syncrules.Checksums;
import io.tributary.topics.TopicLayout;
import io.tributary.topics.TopicNames;
import io.tributary.topics.codec.TopicCodec;
import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.ResolvedRow;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.StreamPosition;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.provision.TopicProvisioner;
import io.tributary.writer.StorageWriter;
import io.tributary.writer.WriterConfig;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * Storage writer throughput: ops/s into bucket storage for a replay of {@code rows} (every row new: the
 * insert-if-absent fast path), then for an update pass over a fifth of the rows (the lookup path), next to a bare
 * {@code COPY} of the same op rows into {@code bucket_data} (one connection, and as many connections as writer
 * threads) in the same run, on the same Postgres.
 *
 * <p>Usage: {@code java -cp <classpath> io.tributary.bench.storage.StorageWriterBench [rows] [partitions]
 * [threads] [batch]} (defaults: 1,000,000 rows, 8 partitions, 4 writer threads, 5,000 records per batch). Uses an
 * embedded Kafka broker and Postgres server; {@code rows} is written before the writer starts, so the figure is
 * the writer's own throughput, not the producer's.
 */
public final class StorageWriterBench {

    private static final String RULES = String.join("\n",
        "bucket_definitions:",
        "  by_user:",
        "    parameters: SELECT request.user_id() AS user_id",
        "    data:",
        "      - SELECT id, owner, title, n FROM todos WHERE owner = bucket.user_id",
        "");
    private static final TableId TABLE = TableId.of("public", "todos");
    private static final int USERS = 1_000;

    private StorageWriterBench() {
    }

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int partitions = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 4;
        int batch = args.length > 3 ? Integer.parseInt(args[3]) : 5_000;
        System.out.printf(Locale.ROOT, "storage writer bench: %,d rows, %d partitions, %d writer threads, batch %,d,"
            + " %d cores%n", rows, partitions, threads, batch, Runtime.getRuntime().availableProcessors());
        try (EmbeddedKafka kafka = EmbeddedKafka.start(); EmbeddedPostgres postgres = EmbeddedPostgres.start()) {
            postgres.createDatabase("bench");
            String url = postgres.jdbcUrl("bench");
            PgEndpoint storage = new PgEndpoint(url, postgres.superuser(), "");
            long group;
            long copyGroup;
            try (Connection c = connect(storage)) {
                Migrations.migrate(c);
                group = SyncRulesGroups.create(c, RULES).id();
                copyGroup = SyncRulesGroups.create(c, RULES).id();
            }
            Properties properties = new Properties();
            properties.put("bootstrap.servers", kafka.bootstrapServers());
            TopicNames names = TopicNames.withPrefix("bench.");
            try (Admin admin = Admin.create(properties)) {
                TopicProvisioner.ensure(admin, names, TopicLayout.of(partitions, 1, (short) 1));
            }

            long produced = produce(properties, names.rows(), partitions, rows, 0, 0);
            WriterConfig config = WriterConfig.of(properties, names, storage, group, RULES, batch, threads);
            try (StorageWriter writer = StorageWriter.start(config)) {
                report("writer, new rows (insert-if-absent)", await(writer, storage, group, produced));
            }
            long updated = produce(properties, names.rows(), partitions, rows / 5, 1, 1_000);
            try (StorageWriter writer = StorageWriter.start(config)) {
                report("writer, updated rows (lookup + diff)", await(writer, storage, group, produced + updated));
            }

            List<byte[]> chunks = copyChunks(copyGroup, rows, 5_000);
            long start = System.nanoTime();
            copy(storage, chunks, 1);
            report("bare COPY, 1 connection", new Run(rows, rows, System.nanoTime() - start));
            try (Connection c = connect(storage); Statement s = c.createStatement()) {
                c.setAutoCommit(true);
                s.execute("TRUNCATE tributary.bucket_data_g" + copyGroup);
            }
            start = System.nanoTime();
            copy(storage, chunks, threads);
            report("bare COPY, " + threads + " connections", new Run(rows, rows, System.nanoTime() - start));
        }
    }

    private record Run(long records, long ops, long nanos) {
    }

    /**
     * Waits until the group's stored offsets reach {@code records}; measures from the first commit (so joining the
     * consumer group is not measured), counting the ops and records since.
     */
    private static Run await(StorageWriter writer, PgEndpoint storage, long group, long records)
        throws Exception {
        long initial = offsets(storage, group);
        long startRecords;
        while ((startRecords = offsets(storage, group)) == initial) {
            LockSupport.parkNanos(1_000_000);
        }
        long start = System.nanoTime();
        long startOps = ops(storage, group);
        try (Connection c = connect(storage); Statement s = c.createStatement()) {
            c.setAutoCommit(true);
            while (true) {
                if (writer.failure().isPresent()) {
                    throw new IllegalStateException("writer failed", writer.failure().get());
                }
                try (ResultSet rs = s.executeQuery("SELECT coalesce(sum(next_offset), 0) FROM"
                    + " tributary.partition_offsets WHERE group_id = " + group)) {
                    rs.next();
                    if (rs.getLong(1) >= records) {
                        break;
                    }
                }
                LockSupport.parkNanos(20_000_000);
            }
        }
        long nanos = System.nanoTime() - start;
        return new Run(offsets(storage, group) - startRecords, ops(storage, group) - startOps, nanos);
    }

    private static long ops(PgEndpoint storage, long group) throws SQLException {
        return count(storage, "SELECT count(*) FROM tributary.bucket_data WHERE group_id = " + group);
    }

    private static long offsets(PgEndpoint storage, long group) throws SQLException {
        return count(storage, "SELECT coalesce(sum(next_offset), 0) FROM tributary.partition_offsets"
            + " WHERE group_id = " + group);
    }

    private static long count(PgEndpoint storage, String sql) throws SQLException {
        try (Connection c = connect(storage); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void report(String what, Run run) {
        double seconds = run.nanos() / 1e9;
        System.out.printf(Locale.ROOT, "%-40s %,10d ops in %6.2f s = %,9.0f ops/s (%,9.0f records/s)%n", what,
            run.ops(), seconds, run.ops() / seconds, run.records() / seconds);
    }

    /** Writes {@code rows} todos (version {@code version}) and a barrier after every 50,000; returns records sent. */
    private static long produce(Properties kafka, String topic, int partitions, int rows, int version,
                                long epochBase) throws Exception {
        Properties properties = new Properties();
        properties.putAll(kafka);
        properties.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        properties.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        properties.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        long sent = 0;
        long epoch = epochBase;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(properties, new ByteArraySerializer(),
            new ByteArraySerializer())) {
            for (int i = 0; i < rows; i++) {
                String id = "t" + i;
                String json = "{\"id\":\"" + id + "\",\"owner\":\"u" + (i % USERS) + "\",\"title\":\"todo number " + i
                    + "\",\"n\":" + version + "}";
                producer.send(TopicCodec.ROWS.recordByKey(topic, partitions, new ResolvedRow(TABLE,
                    KeyValues.of("[\"" + id + "\"]"), RowJson.of(json), StreamPosition.of(Lsn.of(i + 1), 0))));
                sent++;
                if (i % 50_000 == 49_999 || i == rows - 1) {
                    for (var record : TopicCodec.ROWS.recordsToEveryPartition(topic, partitions,
                        Barrier.of(epoch, Lsn.of((epoch + 1) * 10_000_000L)))) {
                        producer.send(record);
                        sent++;
                    }
                    epoch++;
                }
            }
            producer.flush();
        }
        return sent;
    }

    /** The COPY text of the ops the writer produces for the insert pass, in chunks of {@code chunk} rows. */
    private static List<byte[]> copyChunks(long group, int rows, int chunk) {
        List<byte[]> chunks = new ArrayList<>();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < rows; i++) {
            String id = "t" + i;
            String owner = "u" + (i % USERS);
            String data = "{\"id\":\"" + id + "\",\"owner\":\"" + owner + "\",\"title\":\"todo number " + i
                + "\",\"n\":0}";
            String line = group + "\tby_user[\"" + owner + "\"]\t" + (i + 1) + "\t1\ttodos\t" + id + "\t"
                + Checksums.put("todos", id, data) + "\t" + data + "\n";
            out.writeBytes(line.getBytes(StandardCharsets.UTF_8));
            if (i % chunk == chunk - 1 || i == rows - 1) {
                chunks.add(out.toByteArray());
                out.reset();
            }
        }
        return chunks;
    }

    /** COPYs the chunks over {@code connections} connections, one transaction per chunk. */
    private static void copy(PgEndpoint storage, List<byte[]> chunks, int connections) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(connections);
        try {
            List<Future<Void>> done = new ArrayList<>();
            for (int t = 0; t < connections; t++) {
                int first = t;
                done.add(pool.submit(() -> {
                    try (Connection c = connect(storage)) {
                        for (int i = first; i < chunks.size(); i += connections) {
                            CopyIn copy = c.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY tributary.bucket_data"
                                + " (group_id, bucket, op_id, op, source_table, row_id, checksum, data) FROM STDIN");
                            copy.writeToCopy(chunks.get(i), 0, chunks.get(i).length);
                            copy.endCopy();
                            c.commit();
                        }
                    }
                    return null;
                }));
            }
            for (Future<Void> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static Connection connect(PgEndpoint storage) throws SQLException {
        Connection c = storage.connect();
        c.setAutoCommit(false);
        return c;
    }
}
