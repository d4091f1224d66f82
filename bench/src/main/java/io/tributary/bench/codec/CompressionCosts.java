package io.tributary.bench.codec;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.utils.BufferSupplier;
import org.apache.kafka.common.utils.CloseableIterator;

/**
 * CPU per row and bytes of the record batches of the two hops a snapshot row takes, per compression type
 * ({@code none}, {@code lz4}, {@code zstd}), on the thread that runs them (its CPU time, so the rest of the box
 * counts little). <em>Build</em> is what a producer does per row (append to a batch, compress); <em>read</em> is what
 * each reader of the batch does per row: the broker's validation of a compressed batch, then every consumer
 * (decompress, iterate the records). {@code snapshot-rows} batches hold records of 125 rows in 256 KiB producer
 * batches, {@code rows} one record per row in 512 KiB batches (the producers' settings).
 *
 * <p>Two row shapes of ~500 B: {@code bench}, the bench's {@code items} rows (a body of one MD5 repeated 13 times,
 * very compressible), and {@code random}, a body of random Base64 (the least compressible text a row holds).
 *
 * <p>Usage: {@code java -cp <bench classpath> io.tributary.bench.codec.CompressionCosts [rows] [rounds]} (defaults
 * 200,000 and 5); the first round of each configuration warms the JIT; prints the median of the others.
 */
public final class CompressionCosts {

    private static final int SNAPSHOT_ROWS_PER_RECORD = 125;
    private static final int SNAPSHOT_BATCH_BYTES = 256 * 1024;
    private static final int ROWS_BATCH_BYTES = 512 * 1024;
    private static final List<String> TYPES = List.of("none", "lz4", "zstd");

    private record Result(long bytes, double buildMicros, double readMicros) {
    }

    private CompressionCosts() {
    }

    public static void main(String[] args) {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        System.out.println("| shape | hop | compression | bytes / raw | build us/row | read us/row |");
        System.out.println("| --- | --- | --- | ---: | ---: | ---: |");
        for (String shape : List.of("bench", "random")) {
            List<byte[]> values = rows(rows, shape);
            long raw = values.stream().mapToLong(v -> v.length).sum();
            for (boolean batched : new boolean[] {true, false}) {
                for (String type : TYPES) {
                    double[] build = new double[rounds];
                    double[] read = new double[rounds];
                    long bytes = 0;
                    for (int round = -1; round < rounds; round++) {
                        Result result = measure(values, batched, type);
                        if (round >= 0) {
                            build[round] = result.buildMicros();
                            read[round] = result.readMicros();
                            bytes = result.bytes();
                        }
                    }
                    System.out.printf(Locale.ROOT, "| %s | %s | %s | %.2f | %.2f | %.2f |%n", shape,
                        batched ? "snapshot-rows" : "rows", type, bytes / (double) raw, median(build), median(read));
                }
            }
        }
    }

    private static Result measure(List<byte[]> values, boolean batched, String type) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        int perRecord = batched ? SNAPSHOT_ROWS_PER_RECORD : 1;
        int batchBytes = batched ? SNAPSHOT_BATCH_BYTES : ROWS_BATCH_BYTES;
        List<MemoryRecords> batches = new ArrayList<>();
        long bytes = 0;
        long start = threads.getCurrentThreadCpuTime();
        int next = 0;
        while (next < values.size()) {
            MemoryRecordsBuilder builder = MemoryRecords.builder(ByteBuffer.allocate(batchBytes),
                RecordBatch.CURRENT_MAGIC_VALUE, compression(type), TimestampType.CREATE_TIME, 0L);
            int used = 0;
            while (next < values.size() && used < batchBytes - 64 * 1024) {
                int count = Math.min(perRecord, values.size() - next);
                byte[] value = concat(values.subList(next, next + count));
                builder.append(0L, Integer.toString(next).getBytes(StandardCharsets.UTF_8), value);
                used += value.length;
                next += count;
            }
            MemoryRecords built = builder.build();
            bytes += built.sizeInBytes();
            batches.add(built);
        }
        long built = threads.getCurrentThreadCpuTime();
        long checksum = 0;
        for (MemoryRecords records : batches) {
            for (RecordBatch batch : records.batches()) {
                try (CloseableIterator<Record> iterator = batch.streamingIterator(BufferSupplier.create())) {
                    while (iterator.hasNext()) {
                        checksum += iterator.next().valueSize();
                    }
                }
            }
        }
        long read = threads.getCurrentThreadCpuTime();
        if (checksum <= 0) {
            throw new IllegalStateException("Read nothing back");
        }
        return new Result(bytes, (built - start) / 1e3 / values.size(), (read - built) / 1e3 / values.size());
    }

    private static Compression compression(String type) {
        return switch (type) {
            case "lz4" -> Compression.lz4().build();
            case "zstd" -> Compression.zstd().build();
            default -> Compression.NONE;
        };
    }

    private static byte[] concat(List<byte[]> values) {
        int length = values.stream().mapToInt(v -> v.length).sum();
        ByteBuffer out = ByteBuffer.allocate(length);
        values.forEach(out::put);
        return out.array();
    }

    private static List<byte[]> rows(int count, String shape) {
        Random random = new Random(1);
        List<byte[]> rows = new ArrayList<>(count);
        for (int g = 1; g <= count; g++) {
            String body;
            if (shape.equals("bench")) {
                body = md5(Integer.toString(g)).repeat(13);
            } else {
                byte[] bytes = new byte[312];
                random.nextBytes(bytes);
                body = Base64.getEncoder().encodeToString(bytes);
            }
            rows.add(("{\"id\":" + g + ",\"owner\":\"u" + (g % 1000) + "\",\"title\":\"item number " + g
                + "\",\"body\":\"" + body + "\",\"n\":" + (g % 100) + ",\"created\":\"2026-01-01 00:00:00+00\"}")
                .getBytes(StandardCharsets.UTF_8));
        }
        return rows;
    }

    private static String md5(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5")
                .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
