package io.tributary.bench.pipeline;

import io.tributary.bench.probe.CpuProbe;
import io.tributary.bench.probe.CpuUse;
import io.tributary.bench.probe.MemoryProbe;
import io.tributary.bench.pipeline.ResultTable.Row;
import io.tributary.embedded.EmbeddedPostgres;
import io.tributary.postgres.PgEndpoint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What every scenario of one bench run shares: the embedded services, the result table, the memory probe, where
 * launcher logs go, the per-run timeout and how often each configuration is repeated. Scenarios run one after
 * another on the calling thread; not thread-safe.
 */
public final class BenchContext {

    /** One measurement of a configuration; {@code attempt} counts repetitions from 0 (use it in unique names). */
    @FunctionalInterface
    public interface Measurement {
        Row run(int attempt) throws Exception;
    }

    private final String kafka;
    private final EmbeddedPostgres sourceServer;
    private final EmbeddedPostgres storageServer;
    private final Path work;
    private final Path outDirectory;
    private final String started;
    private final Duration timeout;
    private final int repeat;
    private final ResultTable table;
    private final MemoryProbe memory;
    private final CpuProbe cpu;
    private final Runnable afterEachRow;
    private final int chunkRows;

    /**
     * A context.
     *
     * @param chunkRows    {@code replication.snapshot.chunk_rows} of every pipeline run, and the direct path's chunk
     * @param afterEachRow called after every row added (the bench rewrites its result file, so an interrupted run
     *     keeps what it measured)
     */
    public BenchContext(String kafka, EmbeddedPostgres sourceServer, EmbeddedPostgres storageServer, Path work,
                        Path outDirectory, String started, Duration timeout, int repeat, ResultTable table,
                        MemoryProbe memory, CpuProbe cpu, int chunkRows, Runnable afterEachRow) {
        if (repeat < 1) {
            throw new IllegalArgumentException("repeat must be >= 1: " + repeat);
        }
        this.kafka = kafka;
        this.sourceServer = sourceServer;
        this.storageServer = storageServer;
        this.work = work;
        this.outDirectory = outDirectory;
        this.started = started;
        this.timeout = timeout;
        this.repeat = repeat;
        this.table = table;
        this.memory = memory;
        this.cpu = cpu;
        this.afterEachRow = afterEachRow;
        this.chunkRows = chunkRows;
    }

    /** Kafka bootstrap servers. */
    public String kafka() {
        return kafka;
    }

    /** The Postgres server of the source databases. */
    public EmbeddedPostgres sourceServer() {
        return sourceServer;
    }

    /** The limit of one pipeline run. */
    public Duration timeout() {
        return timeout;
    }

    /** The result table. */
    public ResultTable table() {
        return table;
    }

    /** A temporary folder for generated configs and rules. */
    public Path work() {
        return work;
    }

    /** A superuser endpoint of source database {@code database}, created if missing. */
    public PgEndpoint database(String database) {
        return endpoint(sourceServer, database);
    }

    /** A superuser endpoint of {@code database} on the storage server, created if missing. */
    public PgEndpoint storageDatabase(String database) {
        return endpoint(storageServer, database);
    }

    private static PgEndpoint endpoint(EmbeddedPostgres server, String database) {
        server.createDatabase(database);
        return new PgEndpoint(server.jdbcUrl(database), server.superuser(), "");
    }

    /** Writes sync rules to a file of the work folder. */
    public Path rulesFile(String name, String rules) throws IOException {
        return Files.writeString(work.resolve(name + ".yaml"), rules);
    }

    /** Settings of a pipeline run named {@code name} on a fresh storage database {@code storage_<name>}. */
    public PipelineRun.Settings pipeline(String name, String sourceUrl, Path rules, int workers) {
        PgEndpoint storage = storageDatabase("storage_" + name);
        return new PipelineRun.Settings(name, kafka, sourceUrl, storage.jdbcUrl(), storageServer.superuser(), rules,
            workers, chunkRows);
    }

    /**
     * Runs {@code measurement} once per repetition, each with its peak memory and CPU, and adds the median row; an
     * exception becomes a FAILED row naming it. The CPU is what the whole measurement used, unless the row carries
     * its own ({@link Row#withCpu}: measured over the same window as its seconds).
     */
    public Row record(String scenario, String configuration, Measurement measurement) {
        return added(measure(scenario, configuration, measurement, false));
    }

    /**
     * As {@link #record}, each attempt starting on Postgres servers and a page cache at rest ({@link QuietServers}:
     * what earlier scenarios' writes left for autovacuum, the checkpointer and the kernel's writeback done first,
     * outside every window). For measurements that start everything they measure themselves, with nothing of the
     * bench running on the servers before them.
     */
    public Row recordFromRest(String scenario, String configuration, Measurement measurement) {
        return added(measure(scenario, configuration, measurement, true));
    }

    private Row added(Row median) {
        table.add(median);
        afterEachRow.run();
        return median;
    }

    /** As {@link #recordFromRest}, and the row becomes the baseline of every ratio. */
    public Row recordBaseline(String scenario, String configuration, Measurement measurement) {
        Row median = measure(scenario, configuration, measurement, true);
        table.addBaseline(median);
        afterEachRow.run();
        return median;
    }

    private void settleServers() {
        long start = System.nanoTime();
        try {
            QuietServers.settle(sourceServer);
            QuietServers.settle(storageServer);
            QuietServers.syncPageCache();
        } catch (SQLException | IOException e) {
            throw new IllegalStateException("could not bring the Postgres servers to rest before a measurement", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while bringing the servers to rest", e);
        }
        log("servers at rest (vacuum, analyze, checkpoint, sync) in %.1f s", (System.nanoTime() - start) / 1e9);
    }

    /** The CPU probe of the bench JVM and the Postgres servers, for a measurement that times its own window. */
    public CpuProbe cpu() {
        return cpu;
    }

    /** Rows per snapshot chunk of every pipeline run and of the direct path. */
    public int chunkRows() {
        return chunkRows;
    }

    /** How often each configuration runs. */
    public int repeat() {
        return repeat;
    }

    private Row measure(String scenario, String configuration, Measurement measurement, boolean fromRest) {
        List<Row> runs = new ArrayList<>();
        for (int attempt = 0; attempt < repeat; attempt++) {
            if (fromRest) {
                settleServers();
            }
            memory.reset();
            CpuUse before = cpu.total();
            Row row;
            try {
                row = measurement.run(attempt);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("bench interrupted in " + scenario, e);
            } catch (Exception e) {
                log("%s (%s) failed: %s", scenario, configuration, e);
                row = Row.failed(scenario, configuration, 0, 0, "FAILED: " + e);
            }
            CpuUse used = cpu.total().since(before);
            runs.add(row.withUsage(memory.peak(), row.cpu().orElse(used)));
        }
        return Medians.of(runs);
    }

    /** The run's start time, which names its result file ({@code yyyyMMdd-HHmmss}). */
    public String started() {
        return started;
    }

    /** A log file named {@code <started>-<name>.log} next to the result file (the folder is created). */
    public Path logFile(String name) throws IOException {
        Files.createDirectories(outDirectory);
        return outDirectory.resolve(started + "-" + name + ".log");
    }

    /** Keeps the launcher's output of a run next to the result file. */
    public void keepLog(String name, PipelineRun.Outcome outcome) throws IOException {
        Files.createDirectories(outDirectory);
        Files.writeString(outDirectory.resolve(started + "-" + name + ".log"), outcome.output());
    }

    /** Drops a finished run's replication slot so its WAL is not retained for the next runs. */
    public static void dropSlot(PgEndpoint source, String slot) {
        try (Connection c = source.connect(); Statement s = c.createStatement()) {
            s.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '"
                + slot + "' AND NOT active");
        } catch (SQLException e) {
            log("could not drop slot %s: %s", slot, e.getMessage());
        }
    }

    /** A progress line on stderr. */
    public static void log(String format, Object... args) {
        System.err.printf(Locale.ROOT, "[bench] " + format + "%n", args);
    }
}
