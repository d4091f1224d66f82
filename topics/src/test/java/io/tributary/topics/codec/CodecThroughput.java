package io.tributary.topics.codec;

import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.ChunkRange;
import io.tributary.topics.messages.ChunkTask;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.PgSnapshot;
import io.tributary.topics.messages.ResolvedRow;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.SnapshotRow;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TaskPriority;
import io.tributary.topics.messages.TopicMessage;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A manual single-threaded throughput run of the value codec (not a test, not run by the build): records encoded
 * and decoded per second of this thread's CPU time (the box is shared) for {@code SnapshotRow}, {@code ChangeEvent}
 * and {@code ResolvedRow} with rows of about 500 bytes. Run with the test classpath:
 * {@code java -cp ... io.tributary.topics.codec.CodecThroughput [rounds]}.
 */
public final class CodecThroughput {

    private static final int MESSAGES = 1024;
    private static final long ROUND_NANOS = 1_000_000_000L;
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    private CodecThroughput() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        TableId table = TableId.of("public", "orders");
        PgSnapshot snapshot = PgSnapshot.parse("1000:1010:1003,1005");
        ChunkTask task = new ChunkTask("w1#3", table, ChunkRange.of(KeyValues.of("[1]"), KeyValues.of("[9999]")), 1,
            TaskPriority.ACTIVE_SNAPSHOT, "w1");
        List<TopicMessage> snapshotRows = new ArrayList<>();
        List<TopicMessage> changes = new ArrayList<>();
        List<TopicMessage> resolved = new ArrayList<>();
        for (int i = 0; i < MESSAGES; i++) {
            KeyValues pk = KeyValues.of("[" + i + "]");
            RowJson row = RowJson.of(row(i));
            SnapshotRow s = SnapshotRow.of(task, pk, row, snapshot);
            ChangeEvent c = ChangeEvent.update(table, pk, row, Lsn.of(0x16_0000_0000L + i * 64L), i, 4242 + i);
            snapshotRows.add(s);
            changes.add(c);
            resolved.add(i % 2 == 0 ? ResolvedRow.of(s) : ResolvedRow.of(c));
        }
        System.out.printf("row bytes ~%d%n", row(500).length());
        for (int round = 0; round < rounds; round++) {
            run("snapshot-row", TopicCodec.SNAPSHOT_ROWS, snapshotRows);
            run("change", TopicCodec.CHANGES, changes);
            run("row", TopicCodec.ROWS, resolved);
        }
    }

    private static String row(int i) {
        StringBuilder b = new StringBuilder("{\"id\":").append(i);
        b.append(",\"customer\":\"Customer number ").append(i).append(" of the east region\"");
        b.append(",\"total\":").append(1000 + i).append(".25,\"status\":\"shipped\",\"notes\":\"");
        b.append("x".repeat(300)).append("\",\"created_at\":\"2026-11-29T12:34:56.789012Z\"");
        b.append(",\"tags\":[\"a\",\"b\",\"c\"],\"flag\":true,\"qty\":17,\"ratio\":0.125}");
        return b.toString();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void run(String name, TopicCodec codec, List<TopicMessage> messages) {
        List<byte[]> encoded = new ArrayList<>();
        for (TopicMessage m : messages) {
            encoded.add(codec.encodeValue(m));
        }
        RecordPosition at = RecordPosition.of("bench", 0, 0);
        double enc = rate(i -> codec.encodeValue(messages.get(i)));
        double key = rate(i -> codec.encodeKey(messages.get(i), 0));
        double dec = rate(i -> codec.decode(at, null, encoded.get(i)));
        System.out.printf("%-13s encode %,10.0f rec/s   key %,10.0f rec/s   decode %,10.0f rec/s   (%d B)%n", name,
            enc, key, dec, encoded.get(0).length);
    }

    private static double rate(Function<Integer, Object> op) {
        long count = 0;
        long sink = 0;
        long start = CPU.getCurrentThreadCpuTime();
        long now;
        do {
            for (int i = 0; i < MESSAGES; i++) {
                sink += System.identityHashCode(op.apply(i)) & 1;
            }
            count += MESSAGES;
            now = CPU.getCurrentThreadCpuTime();
        } while (now - start < ROUND_NANOS);
        if (sink == -1) {
            System.out.println(sink);
        }
        return count * 1e9 / (now - start);
    }
}
