package io.tributary.bench.initial;

import com.nimbusds.jose.jwk.OctetSequenceKey;
import io.tributary.api.auth.DevelopmentTokens;
import io.tributary.bench.load.ApiAlone;
import io.tributary.bench.load.ApiProcess;
import io.tributary.bench.pipeline.BenchContext;
import io.tributary.bench.pipeline.Dataset;
import io.tributary.bench.pipeline.PipelineRows;
import io.tributary.bench.pipeline.PipelineRun;
import io.tributary.bench.pipeline.ResultTable.Row;
import io.tributary.bench.probe.CpuUse;
import io.tributary.postgres.PgEndpoint;
import io.tributary.storage.compact.BucketCompactor;
import io.tributary.storage.compact.CompactionResult;
import io.tributary.storage.compact.StorageFigures;
import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Scenario I, a fresh client's initial sync: the source holds {@code rows} items, each updated {@code updates} times,
 * all owned by user {@code big} (one bucket of the bench's rules). The pipeline snapshots them and stops (slot kept),
 * the updates are committed (1,000-row transactions) and a second run catches up; then only the API runs (alone in
 * its own JVM, {@link ApiAlone}) and the real PowerSync client ({@link NodeClient}, a fresh Node process and empty
 * database each time) is timed from {@code connect()} to its first complete checkpoint applied in its SQLite
 * database:
 * <ul>
 *   <li>I1 over bucket_data as replicated (every op of every row);</li>
 *   <li>I2 after one compaction pass ({@link BucketCompactor}, the {@code tributary compact} pass), timed apart;</li>
 *   <li>I3 the dump ceiling: the live rows as one NDJSON file ({@link DumpServer}) fetched and inserted into the same
 *       table by the same client database, in one transaction;</li>
 *   <li>I4 the client alone: the bytes the API sent in I2, up to the checkpoint_complete line, recorded by a proxy
 *       in front of the API (an untimed sync through it) and served from a file ({@link RecordedStream}), so the
 *       client's CPU there is its own work on exactly what the API sends, with no server work at all.</li>
 * </ul>
 * A row's rows are the live rows (so rows/s compares the four, and time per row across sizes); the CPU columns are
 * the API JVM's and Postgres' over the timed part (the pipeline no longer runs), the notes add ops, the client's CPU
 * and the ratio to the dump.
 */
public final class InitialSync {

    /** One size: {@code rows} items, each updated {@code updates} times. */
    public record Size(long rows, int updates) {
        public Size {
            if (rows < 1 || updates < 0) {
                throw new IllegalArgumentException("scenario I needs >= 1 row and >= 0 updates: " + rows + "x"
                    + updates);
            }
        }

        /** {@code ROWSxUPDATES}, as {@code --initial-sizes} takes it. */
        public static Size parse(String text) {
            String[] parts = text.trim().toLowerCase(Locale.ROOT).split("x");
            if (parts.length != 2) {
                throw new IllegalArgumentException("an initial-sync size is ROWSxUPDATES (10000x100): " + text);
            }
            return new Size(Long.parseLong(parts[0]), Integer.parseInt(parts[1]));
        }
    }

    /** How storage gets the ops: the whole pipeline (the default), or {@link DirectLoad} on a machine too busy. */
    public enum Load {
        PIPELINE, DIRECT;

        /** {@code pipeline} or {@code direct}, as {@code --initial-load} takes it. */
        public static Load parse(String text) {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        }
    }

    static final String UNCOMPACTED = "I1 initial sync, uncompacted";
    static final String COMPACTED = "I2 initial sync after one compaction pass";
    static final String DUMP = "I3 dump ceiling: the live rows as one NDJSON file";
    static final String REPLAYED = "I4 the client alone: I2's stream replayed from a recording";
    private static final String USER = "big";
    private static final String AUDIENCE = "tributary-bench";

    private InitialSync() {
    }

    /** Runs every size and adds its three rows; the client's SQLite is {@code sqlite} ({@code --initial-client}). */
    public static void run(BenchContext ctx, Path rules, List<Size> sizes, Load load, String sqlite) {
        NodeClient client = NodeClient.install(NodeClient.Sqlite.parse(sqlite), "items",
            List.of("owner", "title", "body", "n", "updated_at"));
        for (Size size : sizes) {
            try {
                size(ctx, rules, client, size, load);
            } catch (Exception e) {
                BenchContext.log("scenario I, %,d x %d failed: %s", size.rows(), size.updates(), e);
                String configuration = configuration(size);
                ctx.record(UNCOMPACTED, configuration, attempt -> Row.failed(UNCOMPACTED, configuration,
                    size.rows(), 0, "FAILED: " + String.valueOf(e).replace('\n', ' ')));
            }
        }
    }

    private static String configuration(Size size) {
        return String.format(Locale.ROOT, "%,d rows x %d updates", size.rows(), size.updates());
    }

    /** The storage a size's client syncs from, after the load. */
    private record Loaded(PgEndpoint storage, long group, String how) {
    }

    private static void size(BenchContext ctx, Path rules, NodeClient client, Size size, Load load)
        throws Exception {
        String configuration = configuration(size);
        String name = "bench_i_" + size.rows() + "_" + size.updates();
        PgEndpoint source = ctx.database("initial_" + size.rows() + "_" + size.updates());
        try (Connection c = source.connect(); Statement s = c.createStatement()) {
            Dataset.load(c, size.rows());
            s.execute("UPDATE " + Dataset.TABLE + " SET owner = '" + USER + "'");
            s.execute("VACUUM ANALYZE " + Dataset.TABLE);
        }
        Loaded loaded;
        if (load == Load.DIRECT) {
            BenchContext.log("scenario I, %s: loading storage directly ...", configuration);
            PgEndpoint storage = ctx.storageDatabase("storage_" + name);
            long start = System.nanoTime();
            long group = DirectLoad.load(source, storage, Files.readString(rules), size.rows(), size.updates());
            loaded = new Loaded(storage, group, String.format(Locale.ROOT, "storage loaded directly in %.0f s"
                + " (the rules over each version of the rows, COPY, no Kafka); ", (System.nanoTime() - start) / 1e9));
        } else {
            Optional<Loaded> replicated = replicate(ctx, rules, source, name, size);
            if (replicated.isEmpty()) {
                return;
            }
            loaded = replicated.get();
        }
        PgEndpoint storage = loaded.storage();
        long group = loaded.group();
        String bucket = Dataset.definition(1) + "[\"" + USER + "\"]";
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        String hex = HexFormat.of().formatHex(secret);
        OctetSequenceKey key = ApiAlone.key(hex);
        String token = DevelopmentTokens.mint(key, AUDIENCE, USER, Duration.ofHours(12), Instant.now());
        String options = System.getenv().getOrDefault("BENCH_API_JAVA_OPTS", "-Xmx3g");
        List<String> args = List.of(storage.jdbcUrl(), source.jdbcUrl(), storage.user(), "10", hex, AUDIENCE);
        try (ApiProcess api = ApiProcess.start(args, options, ctx.work().resolve(name + "-api.log"))) {
            String endpoint = "http://127.0.0.1:" + api.port();
            long opsBefore = figures(storage, group).ops();
            Timed uncompacted = timed(ctx, api, () -> client.sync(endpoint, token, ctx.timeout(),
                ctx.work().resolve(name + "-uncompacted.log")));
            long start = System.nanoTime();
            CompactionResult compaction;
            try (Connection c = storage.connect()) {
                compaction = BucketCompactor.ofBatch(BucketCompactor.DEFAULT_BATCH_OPS).compact(c, group);
            }
            double compactSeconds = (System.nanoTime() - start) / 1e9;
            long opsAfter = figures(storage, group).ops();
            Timed compacted = timed(ctx, api, () -> client.sync(endpoint, token, ctx.timeout(),
                ctx.work().resolve(name + "-compacted.log")));
            Timed replayed;
            long recordedBytes;
            int forwarded;
            try (RecordedStream recorded = RecordedStream.start(endpoint, ctx.work().resolve(name + ".stream"))) {
                client.sync(recorded.endpoint(), token, ctx.timeout(), ctx.work().resolve(name + "-recording.log"));
                recordedBytes = recorded.bytes();
                replayed = timed(ctx, api, () -> client.sync(recorded.endpoint(), token, ctx.timeout(),
                    ctx.work().resolve(name + "-replayed.log")));
                forwarded = recorded.forwarded();
            }
            Timed dump;
            long dumpBytes;
            try (DumpServer server = DumpServer.start(storage, group, bucket, ctx.work().resolve(name + ".ndjson"))) {
                dumpBytes = server.bytes();
                dump = timed(ctx, api, () -> client.dump(server.url(), ctx.timeout(),
                    ctx.work().resolve(name + "-dump.log")));
            }
            String shape = String.format(Locale.ROOT, "%s, %s", configuration, client.describe());
            record(ctx, UNCOMPACTED, shape, size, uncompacted, opsBefore, dump, loaded.how());
            record(ctx, COMPACTED, shape, size, compacted, opsAfter, dump, String.format(Locale.ROOT,
                "compaction pass %.1f s (%,d ops moved, %,d cleared, %,d -> %,d ops); ", compactSeconds,
                compaction.moved(), compaction.cleared(), opsBefore, opsAfter));
            record(ctx, DUMP, shape, size, dump, 0, dump, String.format(Locale.ROOT, "%,.1f MB of NDJSON; ",
                dumpBytes / 1e6));
            record(ctx, REPLAYED, shape, size, replayed, opsAfter, dump, String.format(Locale.ROOT, "I2's stream"
                    + " up to its checkpoint_complete, %,.1f MB, recorded through a proxy and served from the file"
                    + " (%d other requests went to the API); client CPU %.2f us per op against the dump's %.2f us per"
                    + " row: %.2fx; ", recordedBytes / 1e6, forwarded, replayed.result().cpuSeconds() * 1e6 / opsAfter,
                dump.result().cpuSeconds() * 1e6 / size.rows(),
                replayed.result().cpuSeconds() / dump.result().cpuSeconds()));
        }
    }

    /**
     * The pipeline's storage: a run snapshots the rows and stops (slot kept), the updates are committed, a second run
     * catches up. Empty (and a FAILED row) when a run fails.
     */
    private static Optional<Loaded> replicate(BenchContext ctx, Path rules, PgEndpoint source, String name,
                                              Size size) throws Exception {
        String configuration = configuration(size);
        PipelineRun.Settings pipeline = ctx.pipeline(name, source.jdbcUrl(), rules, 2);
        BenchContext.log("scenario I, %s: snapshot ...", configuration);
        PipelineRun.Outcome snapshot = PipelineRun.run(pipeline, ctx.timeout());
        ctx.keepLog(name + "_snapshot", snapshot);
        if (snapshot.exitCode() != 0 || snapshot.summary().isEmpty()) {
            ctx.table().add(PipelineRows.failed(UNCOMPACTED, configuration + ": snapshot", size.rows(), snapshot));
            return Optional.empty();
        }
        if (size.updates() > 0) {
            BenchContext.log("scenario I, %s: committing %,d updates ...", configuration,
                size.rows() * size.updates());
            try (Connection c = source.connect()) {
                Dataset.update(c, size.rows(), size.updates(), 1_000);
            }
            PipelineRun.Outcome caughtUp = PipelineRun.run(pipeline, ctx.timeout());
            ctx.keepLog(name + "_updates", caughtUp);
            if (caughtUp.exitCode() != 0 || caughtUp.summary().isEmpty()) {
                ctx.table().add(PipelineRows.failed(UNCOMPACTED, configuration + ": updates", size.rows(),
                    caughtUp));
                return Optional.empty();
            }
        }
        BenchContext.dropSlot(source, pipeline.name());
        return Optional.of(new Loaded(pipeline.storage(), activeGroup(pipeline.storage()), ""));
    }

    /** A client measurement with the API JVM's and Postgres' CPU over it. */
    private record Timed(NodeClient.Result result, double apiCpu, double postgresCpu) {
    }

    @FunctionalInterface
    private interface Measurement {
        NodeClient.Result run() throws Exception;
    }

    private static Timed timed(BenchContext ctx, ApiProcess api, Measurement measurement) throws Exception {
        double apiBefore = api.cpuSeconds();
        CpuUse pgBefore = ctx.cpu().total();
        NodeClient.Result result = measurement.run();
        return new Timed(result, api.cpuSeconds() - apiBefore, ctx.cpu().total().since(pgBefore).postgresSeconds());
    }

    private static void record(BenchContext ctx, String scenario, String configuration, Size size, Timed timed,
                               long ops, Timed dump, String prefix) {
        ctx.record(scenario, configuration, attempt -> {
            NodeClient.Result r = timed.result();
            String perOp = ops == 0 ? "" : String.format(Locale.ROOT, "%,d ops (%.2f per row), %,.0f ops/s, api"
                + " %.1f us CPU per op; ", ops, ops / (double) size.rows(), ops / r.seconds(),
                timed.apiCpu() * 1e6 / ops);
            String notes = String.format(Locale.ROOT, "%s%s%.2fx the dump's time; client CPU %.1f s; seconds ="
                    + " connect() to the first complete checkpoint in the client's database (I3: GET and insert);"
                    + " CPU: the api JVM's and Postgres' over them", prefix, perOp,
                r.seconds() / dump.result().seconds(), r.cpuSeconds());
            if (r.rows() != size.rows()) {
                return Row.failed(scenario, configuration, r.rows(), r.seconds(), "FAILED: the client holds "
                    + r.rows() + " rows, the source " + size.rows() + "; " + notes);
            }
            return Row.ok(scenario, configuration, size.rows(), r.seconds(), notes)
                .withCpu(new CpuUse(timed.apiCpu(), 0, timed.postgresCpu()));
        });
    }

    private static StorageFigures figures(PgEndpoint storage, long group) throws Exception {
        try (Connection c = storage.connect()) {
            return StorageFigures.of(c, group);
        }
    }

    private static long activeGroup(PgEndpoint storage) throws Exception {
        try (Connection c = storage.connect()) {
            return SyncRulesGroups.list(c).stream().filter(g -> g.state() == GroupState.ACTIVE)
                .mapToLong(SyncRulesGroup::id).max().orElseThrow(() -> new IllegalStateException("no ACTIVE sync"
                    + " rules group in storage after the pipeline ran"));
        }
    }
}
