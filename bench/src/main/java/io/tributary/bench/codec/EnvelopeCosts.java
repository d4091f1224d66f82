package io.tributary.bench.codec;

import io.tributary.topics.codec.RecordKeys;
import io.tributary.topics.codec.RecordPosition;
import io.tributary.topics.codec.TopicCodec;
import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.ChangesMessage;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.ResolvedRow;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.RowKey;
import io.tributary.topics.messages.RowsMessage;
import io.tributary.topics.messages.SnapshotPosition;
import io.tributary.topics.messages.StreamPosition;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TopicMessage;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * CPU per row of the two value envelopes of a row of {@code rows} and of a change event of {@code changes}, on the
 * thread that runs them (its CPU time, so the rest of the box counts little): encoding (what a stream worker does per
 * row, ingest per change) and decoding (what every storage writer does per row, a stream worker per change), JSON
 * (version 1) against binary (version 2), on rows of the bench's ~500 B shape (of rows, half from the stream, half
 * from snapshot chunks; the changes are updates of the same rows). Rounds alternate the two envelopes; the first
 * round of each warms the JIT and is not printed.
 *
 * <p>Usage: {@code java -cp <bench classpath> io.tributary.bench.codec.EnvelopeCosts [rows] [rounds]} (defaults
 * 200,000 and 5); prints one line per topic, envelope and round, then the medians.
 */
public final class EnvelopeCosts {

    private static final TableId ITEMS = TableId.of("public", "items");
    private static final String BODY = "lorem ipsum dolor sit amet ".repeat(16).substring(0, 416);

    private EnvelopeCosts() {
    }

    public static void main(String[] args) {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        List<ResolvedRow> resolved = new ArrayList<>(rows);
        List<ChangesMessage> changes = new ArrayList<>(rows);
        List<byte[]> keys = new ArrayList<>(rows);
        for (int i = 0; i < rows; i++) {
            ResolvedRow row = row(i);
            resolved.add(row);
            changes.add(ChangeEvent.update(ITEMS, row.pk(), row.row(), Lsn.of(1_000_000L + i), i % 1000,
                7L + i / 1000));
            keys.add(RecordKeys.encode(RowKey.of(ITEMS, row.pk())));
        }
        measure("rows", TopicCodec.ROWS, new ArrayList<RowsMessage>(resolved), keys, rounds);
        measure("changes", TopicCodec.CHANGES, changes, keys, rounds);
    }

    /** Encodes and decodes {@code messages} on {@code topic} in both envelope versions, rounds alternating. */
    private static <M extends TopicMessage> void measure(String topic, TopicCodec<M> codec, List<M> messages,
                                                         List<byte[]> keys, int rounds) {
        int rows = messages.size();
        int[] versions = {TopicCodec.FORMAT_VERSION, TopicCodec.ROW_ENVELOPE_VERSION};
        double[][] encode = new double[2][rounds];
        double[][] decode = new double[2][rounds];
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (int round = -1; round < rounds; round++) {
            for (int v = 0; v < versions.length; v++) {
                List<byte[]> values = new ArrayList<>(rows);
                long start = threads.getCurrentThreadCpuTime();
                for (M message : messages) {
                    values.add(codec.encodeValue(message, versions[v]));
                }
                long encoded = threads.getCurrentThreadCpuTime();
                long sink = 0;
                for (int i = 0; i < rows; i++) {
                    sink += codec.decode(RecordPosition.of(topic, 0, i), keys.get(i), values.get(i)) != null ? 1 : 0;
                }
                long decodedAt = threads.getCurrentThreadCpuTime();
                if (sink == 0) {
                    throw new IllegalStateException("nothing decoded");
                }
                if (round >= 0) {
                    encode[v][round] = (encoded - start) / 1e3 / rows;
                    decode[v][round] = (decodedAt - encoded) / 1e3 / rows;
                    System.out.printf(Locale.ROOT, "%s  round %d  version %d  encode %.3f us/row  decode %.3f us/row"
                        + "  (%,d B/row)%n", topic, round + 1, versions[v], encode[v][round], decode[v][round],
                        values.stream().mapToLong(b -> b.length).sum() / rows);
                }
            }
        }
        for (int v = 0; v < versions.length; v++) {
            System.out.printf(Locale.ROOT, "%s  median   version %d  encode %.3f us/row  decode %.3f us/row%n", topic,
                versions[v], median(encode[v]), median(decode[v]));
        }
    }

    private static ResolvedRow row(int i) {
        String json = String.format(Locale.ROOT, "{\"id\":%d,\"owner\":\"owner-%d\",\"title\":\"title %d\","
            + "\"body\":\"%s\",\"n\":%d,\"created_at\":\"2026-12-03T10:%02d:%02d.%06dZ\"}", i, i % 1000, i, BODY,
            i % 97, i / 60 % 60, i % 60, i % 1_000_000);
        KeyValues pk = KeyValues.of("[" + i + "]");
        return i % 2 == 0
            ? new ResolvedRow(ITEMS, pk, RowJson.of(json), StreamPosition.of(Lsn.of(1_000_000L + i), i % 7))
            : new ResolvedRow(ITEMS, pk, RowJson.of(json), SnapshotPosition.of("w-" + (i / 20_000) + "#" + i / 500, 1));
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
