package io.tributary.bench.direct;

import io.tributary.bench.pipeline.Baselines;
import io.tributary.bench.probe.CpuProbe;
import io.tributary.bench.probe.CpuUse;
import io.tributary.ingest.planner.ChunkSplitter;
import io.tributary.postgres.PgEndpoint;
import io.tributary.snapshot.read.RangeQuery;
import io.tributary.source.catalog.SourceCatalog;
import io.tributary.source.catalog.TableSchema;
import io.tributary.source.encoding.EncodedRow;
import io.tributary.source.encoding.JdbcRowEncoder;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.schema.Migrations;
import io.tributary.syncrules.BucketRow;
import io.tributary.syncrules.SyncRules;
import io.tributary.topics.codec.RecordKeys;
import io.tributary.topics.messages.ChunkRange;
import io.tributary.topics.messages.RowKey;
import io.tributary.topics.messages.TableId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The field's direct path, the baseline of the pipeline's snapshot: one process cuts the table into chunks with the
 * planner's {@link ChunkSplitter}, and {@code threads} threads, each with its own source and storage connection,
 * take chunks from a shared queue, read each with the snapshot workers' keyset query and row encoder
 * ({@link RangeQuery}, {@link JdbcRowEncoder}) in a {@code REPEATABLE READ READ ONLY} transaction, evaluate the
 * compiled sync rules on every row and {@code COPY} the PUT ops into {@code tributary.bucket_data} of a fresh group
 * and each row's key and buckets into its {@code current_data}, one transaction per {@code batchOps} ops. No Kafka,
 * no checkpoint: what a service that snapshots straight into bucket storage does per row. The reference service
 * keeps more per row in its {@code current_data} (the row's data and parameter lookups, by an upsert that reads the
 * stored row first); this path keeps only what a later update or delete needs for its REMOVE ops, by the cheapest
 * statement, so it is the fastest a direct path can be that can go on streaming.
 */
public final class DirectPath {

    /** How the path runs: source and storage, the table and its rules, threads, chunk and batch sizes. */
    public record Settings(PgEndpoint source, PgEndpoint storage, TableId table, String rulesYaml, int threads,
                           int chunkRows, int batchOps) {
        public Settings {
            if (threads < 1 || chunkRows < 1 || batchOps < 1) {
                throw new IllegalArgumentException("threads, chunkRows and batchOps must be >= 1: " + threads + ", "
                    + chunkRows + ", " + batchOps);
            }
        }
    }

    private static final int FETCH_ROWS = 1_000;

    private DirectPath() {
    }

    /**
     * Runs the path once: from planning to the last commit. {@code cpu} measures the same window; the note counts
     * chunks and ops.
     */
    public static Baselines.Measured run(Settings settings, CpuProbe cpu) throws Exception {
        SyncRules rules = SyncRules.parse(settings.rulesYaml());
        long group;
        try (Connection c = settings.storage().connect()) {
            c.setAutoCommit(true);
            Migrations.migrate(c);
            group = SyncRulesGroups.create(c, settings.rulesYaml()).id();
        }
        CpuUse before = cpu.total();
        long start = System.nanoTime();
        TableSchema schema;
        List<ChunkRange> ranges;
        try (Connection c = settings.source().connect()) {
            schema = new SourceCatalog(c).describe(settings.table());
            ranges = new ChunkSplitter(settings.chunkRows(), 10_000).split(c, schema).ranges();
        }
        ConcurrentLinkedQueue<ChunkRange> queue = new ConcurrentLinkedQueue<>(ranges);
        AtomicLong opIds = new AtomicLong();
        AtomicLong rows = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(settings.threads(), r -> new Thread(r, "direct-path"));
        try {
            List<Future<?>> loops = new ArrayList<>();
            for (int i = 0; i < settings.threads(); i++) {
                loops.add(pool.submit(() -> {
                    new Loop(settings, schema, rules, group, opIds).drain(queue, rows);
                    return null;
                }));
            }
            for (Future<?> loop : loops) {
                try {
                    loop.get();
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof Exception cause ? cause : e;
                }
            }
        } finally {
            pool.shutdownNow();
        }
        long nanos = System.nanoTime() - start;
        CpuUse used = cpu.total().since(before);
        long kept = currentDataRows(settings.storage(), group);
        if (kept != rows.get()) {
            throw new IllegalStateException("The direct path kept " + kept + " current_data rows for " + rows.get()
                + " source rows");
        }
        return new Baselines.Measured(rows.get(), nanos, Optional.of(used), String.format(Locale.ROOT,
            "%d chunks, %,d ops, %,d current_data rows", ranges.size(), opIds.get(), kept));
    }

    private static long currentDataRows(PgEndpoint storage, long group) throws SQLException {
        try (Connection c = storage.connect(); PreparedStatement count = c.prepareStatement(
            "SELECT count(*) FROM tributary.current_data WHERE group_id = ?")) {
            count.setLong(1, group);
            try (ResultSet rs = count.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** One thread's connections and its current COPY batches. Not thread-safe. */
    private static final class Loop {
        private final Settings settings;
        private final TableSchema schema;
        private final SyncRules rules;
        private final AtomicLong opIds;
        private final String sourceTable;
        private final JdbcRowEncoder encoder;
        private final PutCopyBatch batch;
        private final CurrentDataCopyBatch current;

        Loop(Settings settings, TableSchema schema, SyncRules rules, long group, AtomicLong opIds) {
            this.settings = settings;
            this.schema = schema;
            this.rules = rules;
            this.opIds = opIds;
            this.batch = new PutCopyBatch(group);
            this.current = new CurrentDataCopyBatch(group);
            this.sourceTable = schema.table().schema() + "." + schema.table().name();
            this.encoder = JdbcRowEncoder.forTable(schema);
        }

        void drain(ConcurrentLinkedQueue<ChunkRange> queue, AtomicLong rows) throws SQLException {
            try (Connection source = settings.source().connect(); Connection storage = settings.storage().connect()) {
                source.setAutoCommit(false);
                source.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
                source.setReadOnly(true);
                storage.setAutoCommit(false);
                for (ChunkRange range = queue.poll(); range != null; range = queue.poll()) {
                    rows.addAndGet(read(source, storage, range));
                    source.commit();
                }
                flush(storage);
            }
        }

        private void flush(Connection storage) throws SQLException {
            batch.copyInto(storage);
            current.copyInto(storage);
            storage.commit();
        }

        private long read(Connection source, Connection storage, ChunkRange range) throws SQLException {
            RangeQuery query = RangeQuery.of(schema, encoder.selectList(), range);
            long read = 0;
            try (PreparedStatement select = source.prepareStatement(query.sql())) {
                query.bind(select);
                select.setFetchSize(FETCH_ROWS);
                try (ResultSet rs = select.executeQuery()) {
                    while (rs.next()) {
                        EncodedRow row = encoder.encode(rs);
                        List<BucketRow> ops = rules.evaluate(sourceTable, row.row().orElseThrow().unsafeUtf8()).rows();
                        for (BucketRow op : ops) {
                            batch.add(opIds.incrementAndGet(), op);
                        }
                        current.add(RecordKeys.encode(new RowKey(schema.table(), row.key())), ops);
                        read++;
                        if (batch.size() >= settings.batchOps()) {
                            flush(storage);
                        }
                    }
                }
            }
            return read;
        }
    }
}
