package io.tributary.bench.writer;

import io.tributary.bench.probe.CpuProbe;
import io.tributary.bench.probe.CpuUse;
import io.tributary.postgres.PgEndpoint;
import io.tributary.topics.TopicNames;
import io.tributary.writer.StorageWriter;
import io.tributary.writer.WriterConfig;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TimeZone;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The storage writer of one group in a JVM of its own, so that its CPU is its own: started by
 * {@link WriterAloneRun}, it finds the last record of each partition of {@code rows}, prints {@code START}, starts
 * the writer, waits until every partition's stored offset reached its end offset and a checkpoint covers every op
 * allocated, prints {@code DONE} with its seconds and CPU over exactly that window, closes the writer and exits.
 *
 * <p>Arguments: bootstrap servers, topic prefix, storage JDBC URL, user, group id, loops, batch records, rules
 * file. Output lines: {@code START}, {@code FIRST <seconds>} (the first batch committed),
 * {@code DONE <seconds> <jvm cpu s> <jit cpu s> <cpu s of the writer's storage backends> <watcher cpu s>
 * <poll threads' cpu s> <commit threads' cpu s>}. The JVM figure leaves out the CPU of this class's own progress
 * queries (the watcher's): they are the bench's, not the writer's. The poll and commit threads' CPU (every writer
 * loop's) is the part of the JVM's that is the writer's per-row work: no start-up, JIT or GC.
 */
public final class WriterAlone {

    private WriterAlone() {
    }

    public static void main(String[] args) throws Exception {
        TimeZone.setDefault(TimeZone.getTimeZone("UTC"));
        Properties kafka = new Properties();
        kafka.put("bootstrap.servers", args[0]);
        TopicNames names = TopicNames.withPrefix(args[1]);
        PgEndpoint storage = new PgEndpoint(args[2], args[3], "");
        long group = Long.parseLong(args[4]);
        int loops = Integer.parseInt(args[5]);
        int batch = Integer.parseInt(args[6]);
        String rules = Files.readString(Path.of(args[7]));
        Map<Integer, Long> ends = endOffsets(kafka, names.rows());
        CpuProbe cpu = CpuProbe.of(List.of());
        WriterConfig config = WriterConfig.of(kafka, names, storage, group, rules, batch, loops);
        try (Connection c = storage.connect()) {
            c.setAutoCommit(true);
            System.out.println("START");
            System.out.flush();
            CpuUse before = cpu.total();
            long start = System.nanoTime();
            boolean first = false;
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long watcherNanos = 0;
            try (StorageWriter writer = StorageWriter.start(config)) {
                while (true) {
                    if (writer.failure().isPresent()) {
                        throw new IllegalStateException("the writer failed", writer.failure().get());
                    }
                    long watchStart = threads.getCurrentThreadCpuTime();
                    Progress progress = progress(c, group);
                    watcherNanos += threads.getCurrentThreadCpuTime() - watchStart;
                    if (!first && progress.anyCommitted()) {
                        first = true;
                        System.out.printf(Locale.ROOT, "FIRST %.3f%n", (System.nanoTime() - start) / 1e9);
                    }
                    if (progress.reached(ends)) {
                        CpuUse used = cpu.total().since(before);
                        double seconds = (System.nanoTime() - start) / 1e9;
                        double watcher = watcherNanos / 1e9;
                        System.out.printf(Locale.ROOT, "DONE %.3f %.3f %.3f %.3f %.3f %.3f %.3f%n", seconds,
                            Math.max(0, used.jvmSeconds() - watcher), used.jitSeconds(),
                            backendSeconds(c, writer.consumerGroup()), watcher, threadSeconds(threads, "-poll"),
                            threadSeconds(threads, "-commit"));
                        System.out.flush();
                        break;
                    }
                    LockSupport.parkNanos(10_000_000);
                }
            }
        }
        System.exit(0);
    }

    /**
     * Per partition, the offset after its last record as a read-committed consumer sees it (what the writer's stored
     * offset becomes once it consumed everything; transaction markers after it are not records).
     */
    private static Map<Integer, Long> endOffsets(Properties kafka, String topic) {
        Properties properties = new Properties();
        properties.putAll(kafka);
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        Map<Integer, Long> ends = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            for (TopicPartition partition : partitions) {
                ends.put(partition.partition(), 0L);
                consumer.seek(partition, Math.max(0, end.get(partition) - 1_000));
            }
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read to the end of " + topic);
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    ends.merge(record.partition(), record.offset() + 1, Math::max);
                }
            }
        }
        return ends;
    }

    /** CPU seconds of this JVM's live threads whose names end with {@code suffix}. */
    private static double threadSeconds(ThreadMXBean threads, String suffix) {
        long nanos = 0;
        for (long id : threads.getAllThreadIds()) {
            ThreadInfo info = threads.getThreadInfo(id);
            if (info != null && info.getThreadName().endsWith(suffix)) {
                nanos += Math.max(0, threads.getThreadCpuTime(id));
            }
        }
        return nanos / 1e9;
    }

    /**
     * CPU seconds of the storage backends serving the writer (its connections are tagged with its consumer group's
     * name; they were opened after the writer started, so all their time falls in the window).
     */
    private static double backendSeconds(Connection c, String consumerGroup) throws SQLException, IOException {
        long ticks = 0;
        try (PreparedStatement s = c.prepareStatement("SELECT pid FROM pg_stat_activity WHERE application_name"
            + " LIKE ? || '%'")) {
            s.setString(1, consumerGroup);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    String stat = Files.readString(Path.of("/proc/" + rs.getLong(1) + "/stat"));
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    ticks += Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
                }
            }
        }
        return ticks / 100.0;
    }

    /** Stored offsets per partition, the highest op id allocated and the published checkpoint's op id. */
    private record Progress(Map<Integer, Long> offsets, long maxOpId, long checkpointOpId) {

        boolean anyCommitted() {
            return offsets.values().stream().anyMatch(offset -> offset > 0);
        }

        boolean reached(Map<Integer, Long> ends) {
            for (Map.Entry<Integer, Long> end : ends.entrySet()) {
                if (offsets.getOrDefault(end.getKey(), 0L) < end.getValue()) {
                    return false;
                }
            }
            return checkpointOpId >= maxOpId && maxOpId > 0;
        }
    }

    private static Progress progress(Connection c, long group) throws SQLException {
        Map<Integer, Long> offsets = new HashMap<>();
        long maxOpId = 0;
        try (PreparedStatement s = c.prepareStatement("SELECT partition, next_offset, max_op_id FROM"
            + " tributary.partition_offsets WHERE group_id = ?")) {
            s.setLong(1, group);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    offsets.put(rs.getInt(1), rs.getLong(2));
                    maxOpId = Math.max(maxOpId, rs.getLong(3));
                }
            }
        }
        try (PreparedStatement s = c.prepareStatement("SELECT coalesce(checkpoint_op_id, 0) FROM tributary.sync_rules"
            + " WHERE group_id = ?")) {
            s.setLong(1, group);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return new Progress(offsets, maxOpId, rs.getLong(1));
            }
        }
    }
}
