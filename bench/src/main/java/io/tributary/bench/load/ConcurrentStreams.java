package io.tributary.bench.load;

import com.nimbusds.jose.jwk.OctetSequenceKey;
import io.tributary.bench.pipeline.BenchContext;
import io.tributary.bench.pipeline.Dataset;
import io.tributary.bench.pipeline.PipelineRun;
import io.tributary.bench.pipeline.ResultTable.Row;
import io.tributary.bench.probe.CpuUse;
import io.tributary.postgres.PgEndpoint;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.function.Predicate;

/**
 * Scenario N, many sync clients on one API process. A running pipeline (database {@code streams}, workers 2)
 * replicates {@code rows} items: the first half owned by user {@code big} (one large bucket), the second half
 * spread over the 1,000 users {@code u0...u999}. The API runs alone in a JVM of its own ({@link ApiAlone}) with
 * {@code api.max_streams} above the largest stream count; the bench's clients speak the protocol over HTTP/1.1.
 * <ul>
 *   <li>N0 / N1: user {@code big}'s bucket read by a plain JDBC SELECT of its ops, then downloaded by one sync
 *       client (request to its first {@code checkpoint_complete}), after one untimed download; median of three
 *       each. With
 *       {@code BENCH_API_BASELINE_JAR} naming another build's {@code tributary-api} jar, a second API process runs
 *       that jar and N1 times both, their downloads interleaved (a same-run A/B);</li>
 *   <li>N2, per stream count: the streams of users {@code u<i % 1000>} opened in waves until each completed its
 *       first checkpoint; while all are idle the heap (after a full GC) and RSS of the API process; then one source
 *       transaction updates one row of every {@code u} user, and each stream's receipt of its
 *       {@code checkpoint_diff} is timed against the {@code checkpoint_at} storage stamped on that checkpoint,
 *       until every stream completed it. The API process's CPU over that window per op delivered.</li>
 * </ul>
 */
public final class ConcurrentStreams {

    /** Sizes: source rows, stream counts and how many streams open at once. */
    public record Settings(long rows, List<Integer> streams, int wave) {
        public Settings {
            streams = List.copyOf(streams);
            if (rows < 2_000 || wave < 1 || streams.isEmpty() || streams.stream().anyMatch(n -> n < 1)) {
                throw new IllegalArgumentException("scenario N needs >= 2,000 rows, a wave >= 1 and stream counts"
                    + " >= 1: " + rows + ", " + wave + ", " + streams);
            }
        }
    }

    private static final String PLAIN = "N0 plain read of one bucket's ops";
    private static final String DOWNLOAD = "N1 one client's initial download";
    private static final String STREAMS = "N2 idle streams, one checkpoint to all";
    private static final String BIG = "big";
    private static final int USERS = 1_000;
    private static final Duration SETTLE = Duration.ofSeconds(3);
    private static final int DOWNLOADS = 3;

    private ConcurrentStreams() {
    }

    /** Runs N0, N1 and one N2 row per stream count. */
    public static void run(BenchContext ctx, Path rules, Settings settings) throws Exception {
        PgEndpoint source = ctx.database("streams");
        try (Connection c = source.connect()) {
            Dataset.load(c, settings.rows());
            try (Statement s = c.createStatement()) {
                s.execute("UPDATE " + Dataset.TABLE + " SET owner = '" + BIG + "' WHERE id <= " + settings.rows() / 2);
                s.execute("VACUUM ANALYZE " + Dataset.TABLE);
            }
        }
        PipelineRun.Settings pipeline = ctx.pipeline("bench_n", source.jdbcUrl(), rules, 2);
        PgEndpoint storage = pipeline.storage();
        BenchContext.log("scenario N, starting the pipeline ...");
        try (PipelineRun.Running running = PipelineRun.start(pipeline)) {
            if (!awaitCheckpoint(storage, walEnd(source), ctx.timeout())) {
                ctx.record(STREAMS, "snapshot before streaming", attempt -> Row.failed(STREAMS,
                    "snapshot before streaming", settings.rows(), ctx.timeout().toSeconds(), "TIMEOUT: no checkpoint"));
                ctx.keepLog("bench_n", running.stop());
                return;
            }
            byte[] secret = new byte[32];
            new SecureRandom().nextBytes(secret);
            String hex = HexFormat.of().formatHex(secret);
            OctetSequenceKey key = ApiAlone.key(hex);
            int maxStreams = Collections.max(settings.streams()) + 100;
            List<String> args = List.of(pipeline.storageUrl(), source.jdbcUrl(), pipeline.user(),
                Integer.toString(maxStreams), hex, SyncClients.AUDIENCE);
            String options = System.getenv().getOrDefault("BENCH_API_JAVA_OPTS", "-Xmx3g");
            try (ApiProcess api = ApiProcess.start(args, options, ctx.work().resolve("api-alone.log"));
                 SyncClients clients = new SyncClients(key, api.port());
                 CheckpointTimes times = CheckpointTimes.start(storage, Duration.ofMillis(2))) {
                download(ctx, storage, api, clients, settings.rows() / 2, args, options, hex);
                awaitClosed(api, ctx.timeout());
                for (int n : settings.streams()) {
                    String configuration = String.format(Locale.ROOT, "%,d streams of %,d users, api alone in its"
                        + " own JVM (%s), api.max_streams %,d, opened %,d at a time", n, Math.min(n, USERS), options,
                        maxStreams, settings.wave());
                    ctx.record(STREAMS, configuration, attempt -> streams(ctx, source, api, clients, times, n,
                        settings, configuration));
                }
            }
            ctx.keepLog("bench_n", running.stop());
        }
    }

    private static void download(BenchContext ctx, PgEndpoint storage, ApiProcess api, SyncClients clients,
                                 long ops, List<String> apiArgs, String apiOptions, String keyHex) throws Exception {
        String bucket;
        long group;
        try (Connection c = storage.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT group_id, bucket FROM tributary.bucket_data WHERE bucket LIKE"
                 + " '%" + BIG + "%' LIMIT 1")) {
            rs.next();
            group = rs.getLong(1);
            bucket = rs.getString(2);
        } catch (SQLException e) {
            throw new IllegalStateException("no bucket of user " + BIG + " in storage", e);
        }
        String plainConfiguration = String.format(Locale.ROOT, "bucket %s (%,d ops): SELECT of every column in op id"
            + " order, fetch size 1,000, one connection", bucket, ops);
        Row plain = ctx.record(PLAIN, plainConfiguration, attempt -> {
            double[] seconds = new double[3];
            long read = 0;
            for (int i = 0; i < seconds.length; i++) {
                long start = System.nanoTime();
                read = plainRead(storage, group, bucket);
                seconds[i] = (System.nanoTime() - start) / 1e9;
            }
            return Row.ok(PLAIN, plainConfiguration, read, median(seconds), "median of 3 reads: "
                + seconds(seconds));
        });
        String configuration = String.format(Locale.ROOT, "user %s, no buckets held, raw_data, request to its first"
            + " checkpoint_complete", BIG);
        List<Download> downloads = new ArrayList<>();
        downloads.add(new Download(configuration, api, clients));
        String baseline = System.getenv().getOrDefault("BENCH_API_BASELINE_JAR", "");
        ApiProcess baselineApi = null;
        SyncClients baselineClients = null;
        try {
            if (!baseline.isBlank()) {
                baselineApi = ApiProcess.startWithApiJar(apiArgs, apiOptions, ctx.work().resolve("api-baseline.log"),
                    baseline);
                baselineClients = new SyncClients(ApiAlone.key(keyHex), baselineApi.port());
                downloads.add(0, new Download(configuration + ", build of " + Path.of(baseline).getFileName(),
                    baselineApi, baselineClients));
            }
            timeDownloads(ctx, downloads, plain);
        } finally {
            if (baselineClients != null) {
                baselineClients.close();
            }
            if (baselineApi != null) {
                try {
                    baselineApi.close();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /** One api process whose initial download N1 times. */
    private static final class Download {
        private final String configuration;
        private final ApiProcess api;
        private final SyncClients clients;
        private final double[] seconds = new double[DOWNLOADS];
        private double apiCpu;
        private double postgresCpu;
        private long received;
        private String failure;

        Download(String configuration, ApiProcess api, SyncClients clients) {
            this.configuration = configuration;
            this.api = api;
            this.clients = clients;
        }
    }

    /**
     * N1: each process's download of user {@code big}'s buckets, {@link #DOWNLOADS} times, the processes in turn (a
     * baseline build's and this one's interleaved), so both see the same load; one untimed download per process
     * first, so the figures are of compiled code (the JIT's work on a fresh JVM is most of a first download's CPU).
     */
    private static void timeDownloads(BenchContext ctx, List<Download> downloads, Row plain) throws Exception {
        for (Download d : downloads) {
            SyncStream warmUp = d.clients.open(BIG, "warm-up-" + downloads.indexOf(d));
            await(List.of(warmUp), s -> s.completes() >= 1 || s.failure() != null, ctx.timeout());
            warmUp.close();
            awaitClosed(d.api, ctx.timeout());
        }
        for (int i = 0; i < DOWNLOADS; i++) {
            for (Download d : downloads) {
                if (d.failure != null) {
                    continue;
                }
                double cpu = d.api.cpuSeconds();
                CpuUse pg = ctx.cpu().total();
                long start = System.nanoTime();
                SyncStream stream = d.clients.open(BIG, "download-" + downloads.indexOf(d) + "-" + i);
                await(List.of(stream), s -> s.completes() >= 1 || s.failure() != null, ctx.timeout());
                d.seconds[i] = (System.nanoTime() - start) / 1e9;
                stream.close();
                d.apiCpu += d.api.cpuSeconds() - cpu;
                d.postgresCpu += ctx.cpu().total().since(pg).postgresSeconds();
                if (stream.completes() < 1) {
                    d.failure = "FAILED: " + stream.failure();
                }
                d.received = stream.ops();
                awaitClosed(d.api, ctx.timeout());
            }
        }
        double baselineRate = -1;
        for (Download d : downloads) {
            ctx.record(DOWNLOAD, d.configuration, attempt -> {
                double median = median(d.seconds);
                if (d.failure != null) {
                    return Row.failed(DOWNLOAD, d.configuration, 0, median, d.failure);
                }
                String ratio = plain.rate().map(r -> String.format(Locale.ROOT, "%.2fx N0's rate",
                    d.received / median / r)).orElse("N0 failed");
                CpuUse used = new CpuUse(d.apiCpu / DOWNLOADS, 0, d.postgresCpu / DOWNLOADS);
                return Row.ok(DOWNLOAD, d.configuration, d.received, median, ratio + "; median of " + DOWNLOADS
                    + " downloads: " + seconds(d.seconds) + (downloads.size() > 1 ? ", interleaved with the"
                    + " other build's" : "") + "; CPU: the api JVM's and Postgres' per download").withCpu(used);
            });
        }
    }

    private static long plainRead(PgEndpoint storage, long group, String bucket) throws SQLException {
        long read = 0;
        try (Connection c = storage.connect()) {
            c.setAutoCommit(false);
            try (PreparedStatement s = c.prepareStatement("SELECT op_id, op, source_table, row_id, checksum, data"
                + " FROM tributary.bucket_data WHERE group_id = ? AND bucket = ? ORDER BY op_id")) {
                s.setFetchSize(1_000);
                s.setLong(1, group);
                s.setString(2, bucket);
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        for (int i = 1; i <= 6; i++) {
                            rs.getString(i);
                        }
                        read++;
                    }
                }
            }
            c.commit();
        }
        return read;
    }

    private static Row streams(BenchContext ctx, PgEndpoint source, ApiProcess api, SyncClients clients,
                               CheckpointTimes times, int n, Settings settings, String configuration)
        throws Exception {
        BenchContext.log("%s: %,d streams ...", STREAMS, n);
        long heapBefore = api.heapAfterGc();
        long rssBefore = api.rssBytes();
        List<SyncStream> streams = new ArrayList<>(n);
        long openStart = System.nanoTime();
        try {
            for (int first = 0; first < n; first += settings.wave()) {
                List<SyncStream> wave = new ArrayList<>();
                for (int i = first; i < Math.min(n, first + settings.wave()); i++) {
                    wave.add(clients.open("u" + (i % USERS), "c" + n + "-" + i));
                }
                await(wave, s -> s.completes() >= 1 || s.failure() != null, ctx.timeout());
                streams.addAll(wave);
            }
            double openSeconds = (System.nanoTime() - openStart) / 1e9;
            List<SyncStream> live = streams.stream().filter(s -> s.completes() >= 1 && s.failure() == null).toList();
            String refused = live.size() == n ? "" : String.format(Locale.ROOT, "%,d of %,d streams did not open"
                + " (first: %s); ", n - live.size(), n, firstFailure(streams));
            Thread.sleep(SETTLE.toMillis());
            long heapIdle = api.heapAfterGc();
            long rssIdle = api.rssBytes();
            int served = api.activeStreams();
            if (live.isEmpty()) {
                return Row.failed(STREAMS, configuration, 0, openSeconds, "FAILED: " + refused);
            }
            long[] opsBefore = live.stream().mapToLong(SyncStream::ops).toArray();
            live.forEach(SyncStream::expectDiff);
            double cpuBefore = api.cpuSeconds();
            CpuUse pgBefore = ctx.cpu().total();
            long start = System.nanoTime();
            trigger(source, settings.rows());
            boolean all = await(live, s -> (s.completes() >= 2 && s.diffMicros() >= 0) || s.failure() != null,
                ctx.timeout());
            double seconds = (System.nanoTime() - start) / 1e9;
            CpuUse used = new CpuUse(api.cpuSeconds() - cpuBefore, 0, ctx.cpu().total().since(pgBefore)
                .postgresSeconds());
            long delivered = 0;
            long[] lags = new long[live.size()];
            int timed = 0;
            int missed = 0;
            for (int i = 0; i < live.size(); i++) {
                SyncStream s = live.get(i);
                delivered += s.ops() - opsBefore[i];
                OptionalLong published = s.diffOpId() < 0 ? OptionalLong.empty() : times.publishedMicros(s.diffOpId());
                if (s.diffMicros() >= 0 && published.isPresent()) {
                    lags[timed++] = s.diffMicros() - published.getAsLong();
                } else {
                    missed++;
                }
            }
            List<SyncStream> lost = live.stream().filter(s -> s.failure() != null).toList();
            String ended = lost.isEmpty() ? "" : String.format(Locale.ROOT, "%,d streams ended before completing"
                + " the checkpoint (first: %s); ", lost.size(), firstFailure(lost));
            long[] sorted = Arrays.copyOf(lags, timed);
            Arrays.sort(sorted);
            String notes = String.format(Locale.ROOT, "%s%s%,d streams served; opened in %.1f s; idle: heap after GC"
                    + " %+.1f KiB/stream (%,d -> %,d MiB), RSS %+.1f KiB/stream (%,d -> %,d MiB); checkpoint_at to"
                    + " checkpoint_diff read: p50 %s, p99 %s, max %s ms over %,d streams%s; rows = ops delivered,"
                    + " seconds = source commit to the last stream's checkpoint_complete; CPU: the api JVM's and"
                    + " Postgres' over that window",
                refused, ended, served, openSeconds, (heapIdle - heapBefore) / 1024.0 / live.size(), heapBefore >> 20,
                heapIdle >> 20, (rssIdle - rssBefore) / 1024.0 / live.size(), rssBefore >> 20, rssIdle >> 20,
                millis(sorted, 0.50), millis(sorted, 0.99), millis(sorted, 1.0), timed,
                missed == 0 ? "" : String.format(Locale.ROOT, " (%,d without a timed diff)", missed));
            if (!all || delivered == 0) {
                return Row.failed(STREAMS, configuration, delivered, seconds, "FAILED: not every stream completed"
                    + " the checkpoint (" + firstFailure(live) + "); " + notes);
            }
            return Row.ok(STREAMS, configuration, delivered, seconds, notes).withCpu(used);
        } finally {
            streams.forEach(SyncStream::close);
            awaitClosed(api, ctx.timeout());
        }
    }

    /** One transaction updating one row of every {@code u} user (ids just above the {@code big} half). */
    private static void trigger(PgEndpoint source, long rows) throws SQLException {
        try (Connection c = source.connect(); Statement s = c.createStatement()) {
            c.setAutoCommit(true);
            s.executeUpdate("UPDATE " + Dataset.TABLE + " SET n = n + 1 WHERE id > " + rows / 2 + " AND id <= "
                + (rows / 2 + USERS));
        }
    }

    private static boolean await(List<SyncStream> streams, Predicate<SyncStream> done, Duration timeout)
        throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        int from = 0;
        while (from < streams.size()) {
            if (done.test(streams.get(from))) {
                from++;
            } else if (System.nanoTime() > deadline) {
                return false;
            } else {
                Thread.sleep(1);
            }
        }
        return true;
    }

    private static void awaitClosed(ApiProcess api, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (api.activeStreams() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
    }

    private static String firstFailure(List<SyncStream> streams) {
        return streams.stream().map(SyncStream::failure).filter(f -> f != null).findFirst().orElse("none failed");
    }

    private static String millis(long[] sortedMicros, double quantile) {
        if (sortedMicros.length == 0) {
            return "-";
        }
        int index = (int) Math.min(sortedMicros.length - 1, Math.ceil(quantile * sortedMicros.length) - 1);
        return String.format(Locale.ROOT, "%.0f", sortedMicros[Math.max(0, index)] / 1000.0);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static String seconds(double[] values) {
        return String.join(", ", Arrays.stream(values).mapToObj(v -> String.format(Locale.ROOT, "%.3f s", v))
            .toList());
    }

    private static boolean awaitCheckpoint(PgEndpoint storage, String lsn, Duration timeout)
        throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        SQLException last = null;
        while (System.nanoTime() < deadline) {
            try (Connection c = storage.connect(); PreparedStatement s = c.prepareStatement("SELECT 1 FROM"
                + " tributary.sync_rules WHERE state = 'ACTIVE' AND checkpoint_lsn >= ?::pg_lsn")) {
                s.setString(1, lsn);
                try (ResultSet rs = s.executeQuery()) {
                    if (rs.next()) {
                        return true;
                    }
                }
            } catch (SQLException e) {
                last = e; // storage not migrated yet: retried until the deadline
            }
            Thread.sleep(200);
        }
        if (last != null) {
            BenchContext.log("no checkpoint in storage; last failure: %s", last.getMessage());
        }
        return false;
    }

    private static String walEnd(PgEndpoint source) throws SQLException {
        try (Connection c = source.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT pg_current_wal_lsn()::text")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
