package io.tributary.bench.codec;

import io.tributary.source.catalog.ColumnType;
import io.tributary.source.catalog.SourceColumn;
import io.tributary.source.catalog.TableSchema;
import io.tributary.source.encoding.ConnectRowEncoder;
import io.tributary.source.encoding.EncodedRow;
import io.tributary.source.encoding.RowImage;
import io.tributary.topics.messages.TableId;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * CPU per row of ingest's encoding of a change's row: {@link ConnectRowEncoder} over the Connect structs Debezium
 * builds for a row of the bench's {@code items} table (~500 B: a bigint key, an owner, a title, a 416-character body,
 * an int and a timestamptz), row and key, on the thread that runs it (its CPU time, so the rest of the box counts
 * little). What ingest's batch handler spends per change on the row, before the envelope; run it on two builds (their
 * {@code source} and {@code topics} jars) to compare them. The first round warms the JIT and is not printed.
 *
 * <p>Usage: {@code java -cp <bench classpath> io.tributary.bench.codec.RowEncoderCosts [rows] [rounds]} (defaults
 * 200,000 and 5); prints one line per round, then the median.
 */
public final class RowEncoderCosts {

    private static final String BODY = "lorem ipsum dolor sit amet ".repeat(16).substring(0, 416);

    private static final TableSchema ITEMS = TableSchema.of(TableId.of("public", "items"), List.of(
        SourceColumn.scalar("id", 1, ColumnType.INT8),
        SourceColumn.scalar("owner", 2, ColumnType.TEXT),
        SourceColumn.scalar("title", 3, ColumnType.TEXT),
        SourceColumn.scalar("body", 4, ColumnType.TEXT),
        SourceColumn.scalar("n", 5, ColumnType.INT4),
        SourceColumn.scalar("updated_at", 6, ColumnType.TIMESTAMPTZ)), List.of("id"));

    private static final Schema ROW = SchemaBuilder.struct()
        .field("id", Schema.INT64_SCHEMA)
        .field("owner", Schema.STRING_SCHEMA)
        .field("title", Schema.STRING_SCHEMA)
        .field("body", Schema.STRING_SCHEMA)
        .field("n", Schema.INT32_SCHEMA)
        .field("updated_at", SchemaBuilder.string().name("io.debezium.time.ZonedTimestamp").build())
        .build();

    private RowEncoderCosts() {
    }

    public static void main(String[] args) {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        List<Struct> structs = new ArrayList<>(rows);
        for (int i = 0; i < rows; i++) {
            structs.add(new Struct(ROW).put("id", (long) i).put("owner", "u" + i % 1000)
                .put("title", "item number " + i).put("body", BODY).put("n", i % 100)
                .put("updated_at", String.format(Locale.ROOT, "2026-01-01T%02d:%02d:%02d.%06dZ", i / 3600 % 24,
                    i / 60 % 60, i % 60, i % 1_000_000)));
        }
        ConnectRowEncoder encoder = ConnectRowEncoder.forTable(ITEMS, ROW);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        double[] perRow = new double[rounds];
        for (int round = -1; round < rounds; round++) {
            long bytes = 0;
            long start = threads.getCurrentThreadCpuTime();
            for (Struct struct : structs) {
                EncodedRow encoded = encoder.encode(struct, RowImage.COMPLETE);
                bytes += encoded.row().orElseThrow().unsafeUtf8().length + encoded.key().unsafeUtf8().length;
            }
            long end = threads.getCurrentThreadCpuTime();
            if (round >= 0) {
                perRow[round] = (end - start) / 1e3 / rows;
                System.out.printf(Locale.ROOT, "round %d  encode %.3f us/row  (%,d B/row of row and key)%n",
                    round + 1, perRow[round], bytes / rows);
            }
        }
        Arrays.sort(perRow);
        System.out.printf(Locale.ROOT, "median   encode %.3f us/row%n", perRow[rounds / 2]);
    }
}
