package io.tributary.bench.pipeline;

import io.tributary.bench.probe.CpuProbe;
import io.tributary.bench.probe.CpuUse;
import io.tributary.bench.probe.ServerProcesses;
import io.tributary.postgres.PgEndpoint;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.schema.Migrations;
import io.tributary.syncrules.Checksums;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * The baselines measured on the same data in the same run: what a sequential single-worker snapshot reads, and the
 * hardware ceiling (bare {@code COPY} out of the source and into a {@code bucket_data} table). Each returns the
 * rows it moved and the nanoseconds it took.
 */
public final class Baselines {

    /** Rows moved, the time it took and, where measured, the CPU used over the same window and a note on it. */
    public record Measured(long rows, long nanos, Optional<CpuUse> cpu, String note) {

        public Measured(long rows, long nanos) {
            this(rows, nanos, Optional.empty(), "");
        }

        public double seconds() {
            return nanos / 1e9;
        }
    }

    private static final int CHUNK = 20_000;

    private Baselines() {
    }

    /**
     * Measures B1 (the baseline of every ratio), B2 and B3 on {@code source}'s {@code items} table; B3 writes into
     * a fresh database {@code ceiling[_r<attempt>]}.
     */
    public static void record(BenchContext ctx, PgEndpoint source, long rows) throws Exception {
        copyOut(source);
        ctx.recordBaseline("B1 sequential snapshot", "1 connection, keyset chunks of 20k, columns as text",
            attempt -> ok("B1 sequential snapshot", "1 connection, keyset chunks of 20k, columns as text",
                keysetRead(source), "baseline: the field's default"));
        ctx.recordFromRest("B2 ceiling: COPY out", "COPY (SELECT *) TO STDOUT, 1 connection",
            attempt -> ok("B2 ceiling: COPY out", "COPY (SELECT *) TO STDOUT, 1 connection", copyOut(source), ""));
        ctx.recordFromRest("B3 ceiling: COPY into bucket_data", "1 connection, 5k rows per transaction",
            attempt -> ok("B3 ceiling: COPY into bucket_data", "1 connection, 5k rows per transaction",
                copyIntoBucketData(ctx.storageDatabase("ceiling" + (attempt == 0 ? "" : "_r" + attempt)), rows,
                    ctx.cpu()), "CPU over the COPY only (its text is built before); PG = its backend"));
    }

    /** The row of a measurement. */
    public static ResultTable.Row ok(String scenario, String configuration, Measured measured, String notes) {
        String joined = measured.note().isEmpty() ? notes : notes.isEmpty() ? measured.note()
            : notes + "; " + measured.note();
        ResultTable.Row row = ResultTable.Row.ok(scenario, configuration, measured.rows(), measured.seconds(), joined);
        return measured.cpu().map(row::withCpu).orElse(row);
    }

    /**
     * One connection reading the whole table in keyset chunks of 20,000 rows ({@code WHERE id > last ORDER BY id
     * LIMIT}), every column fetched as text and dropped: the field's default sequential snapshot.
     */
    public static Measured keysetRead(PgEndpoint source) throws SQLException {
        long start = System.nanoTime();
        long rows = 0;
        try (Connection c = source.connect()) {
            c.setAutoCommit(false);
            c.createStatement().execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
            long last = Long.MIN_VALUE;
            long sink = 0;
            try (PreparedStatement s = c.prepareStatement(
                "SELECT * FROM " + Dataset.TABLE + " WHERE id > ? ORDER BY id LIMIT " + CHUNK)) {
                s.setFetchSize(5_000);
                while (true) {
                    s.setLong(1, last);
                    int read = 0;
                    try (ResultSet rs = s.executeQuery()) {
                        int columns = rs.getMetaData().getColumnCount();
                        while (rs.next()) {
                            for (int i = 1; i <= columns; i++) {
                                String value = rs.getString(i);
                                sink += value == null ? 0 : value.length();
                            }
                            last = rs.getLong(1);
                            read++;
                        }
                    }
                    rows += read;
                    if (read < CHUNK) {
                        break;
                    }
                }
            }
            c.commit();
            if (sink < 0) {
                throw new IllegalStateException("unreachable");
            }
        }
        return new Measured(rows, System.nanoTime() - start);
    }

    /** {@code COPY (SELECT * FROM items) TO STDOUT} over one connection into nothing. */
    public static Measured copyOut(PgEndpoint source) throws Exception {
        long start = System.nanoTime();
        try (Connection c = source.connect()) {
            long rows = c.unwrap(PGConnection.class).getCopyAPI()
                .copyOut("COPY (SELECT * FROM " + Dataset.TABLE + ") TO STDOUT", OutputStream.nullOutputStream());
            return new Measured(rows, System.nanoTime() - start);
        }
    }

    /**
     * A bare {@code COPY} of {@code rows} bucket ops (~500 B row data each, the shape the writer produces) into
     * {@code tributary.bucket_data} of a fresh group on {@code storage} (already migrated or not), one connection,
     * one transaction per 5,000 rows; the COPY text is built before the clock starts, and {@code cpu} measures the
     * same window as the clock.
     */
    public static Measured copyIntoBucketData(PgEndpoint storage, long rows, CpuProbe cpu) throws SQLException {
        try (Connection c = storage.connect()) {
            c.setAutoCommit(true);
            Migrations.migrate(c);
            long group = SyncRulesGroups.create(c, Dataset.syncRules(0)).id();
            c.setAutoCommit(false);
            List<byte[]> chunks = copyChunks(group, rows, 5_000);
            long backend = backendPid(c);
            double backendBefore = ServerProcesses.cpuSeconds(backend);
            CpuUse before = cpu.total();
            long start = System.nanoTime();
            for (byte[] chunk : chunks) {
                CopyIn copy = c.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY tributary.bucket_data"
                    + " (group_id, bucket, op_id, op, source_table, row_id, checksum, data) FROM STDIN");
                copy.writeToCopy(chunk, 0, chunk.length);
                copy.endCopy();
                c.commit();
            }
            long nanos = System.nanoTime() - start;
            CpuUse used = cpu.total().since(before);
            return new Measured(rows, nanos, Optional.of(new CpuUse(used.jvmSeconds(), used.jitSeconds(),
                ServerProcesses.cpuSeconds(backend) - backendBefore)),
                String.format(Locale.ROOT, "Postgres servers overall %,.0f us/row",
                    used.postgresSeconds() * 1e6 / rows));
        }
    }

    private static long backendPid(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT pg_backend_pid()"); ResultSet rs = s.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static List<byte[]> copyChunks(long group, long rows, int chunk) {
        List<byte[]> chunks = new ArrayList<>();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (long i = 1; i <= rows; i++) {
            String id = Long.toString(i);
            String owner = "u" + (i % 1000);
            String body = "0123456789abcdef0123456789abcdef".repeat(13);
            String data = "{\"id\":" + id + ",\"owner\":\"" + owner + "\",\"title\":\"item number " + i
                + "\",\"body\":\"" + body + "\",\"n\":" + (i % 100)
                + ",\"updated_at\":\"2026-01-01T00:00:00.000000Z\"}";
            String line = group + "\tby_owner_v0[\"" + owner + "\"]\t" + i + "\t1\titems\t[" + id + "]\t"
                + Checksums.put("items", id, data) + "\t" + data + "\n";
            out.writeBytes(line.getBytes(StandardCharsets.UTF_8));
            if (i % chunk == 0 || i == rows) {
                chunks.add(out.toByteArray());
                out.reset();
            }
        }
        return chunks;
    }
}
