package io.tributary.bench.probe;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * CPU of the bench JVM's Java threads by pipeline stage, from {@link ThreadMXBean#getThreadCpuTime} and the
 * threads' names: a snapshot at the start of a window and {@link #since} at its end. A thread that ends inside the
 * window loses its time; threads the JVM does not expose (JIT compilers, GC) are in no stage, and the caller
 * takes them from the process total. Not thread-safe.
 */
public final class StageCpu {

    /** Stages, by thread name. */
    public enum Stage {
        INGEST_DECODING("ingest's WAL decoding (Debezium's named threads)"),
        INGEST("ingest's engine pool, batch handler and producer"),
        STREAM_WORKERS("stream workers"),
        STORAGE_WRITERS("storage writers"),
        BROKER("Kafka broker"),
        BENCH("bench probes and watchers"),
        OTHER("other Java threads");

        private final String label;

        Stage(String label) {
            this.label = label;
        }

        static Stage of(String thread) {
            if (thread.startsWith("debezium-")) {
                return INGEST_DECODING;
            }
            if (thread.contains("tributary_ingest") || thread.contains("tributary-ingest")
                || thread.startsWith("pool-")) {
                return INGEST;
            }
            if (thread.contains("stream-workers")) {
                return STREAM_WORKERS;
            }
            if (thread.contains("storage-writer")) {
                return STORAGE_WRITERS;
            }
            if (thread.startsWith("bench-")) {
                return BENCH;
            }
            if (thread.startsWith("data-plane") || thread.startsWith("kafka-") || thread.contains("coordinator")
                || thread.startsWith("TxnMarker") || thread.startsWith("AddPartitionsToTxn")
                || thread.startsWith("quorum") || thread.startsWith("executor-") || thread.startsWith("broker-")
                || thread.contains("Reaper") || thread.startsWith("controller-")) {
                return BROKER;
            }
            return OTHER;
        }
    }

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private final Map<Long, Long> start;

    private StageCpu(Map<Long, Long> start) {
        this.start = start;
    }

    /** A snapshot of every live thread's CPU now. */
    public static StageCpu start() {
        return new StageCpu(cpuByThread());
    }

    /** Seconds of CPU per stage since the snapshot (threads started since count from zero). */
    public Map<Stage, Double> since() {
        Map<Stage, Double> used = new EnumMap<>(Stage.class);
        long[] ids = THREADS.getAllThreadIds();
        ThreadInfo[] infos = THREADS.getThreadInfo(ids);
        for (int i = 0; i < ids.length; i++) {
            long now = THREADS.getThreadCpuTime(ids[i]);
            if (infos[i] == null || now < 0) {
                continue;
            }
            long delta = now - start.getOrDefault(ids[i], 0L);
            used.merge(Stage.of(infos[i].getThreadName()), delta / 1e9, Double::sum);
        }
        return used;
    }

    /** A note: microseconds per item of each stage, then {@code rest} (the JVM's CPU in no stage: JIT, GC). */
    public static String note(Map<Stage, Double> used, double jvmSeconds, double jitSeconds, long items) {
        double staged = used.values().stream().mapToDouble(Double::doubleValue).sum();
        String stages = used.entrySet().stream().filter(e -> e.getValue() > 0)
            .map(e -> String.format(Locale.ROOT, "%s %.0f", e.getKey().label, e.getValue() * 1e6 / items))
            .collect(Collectors.joining(", "));
        return String.format(Locale.ROOT, "JVM CPU by stage, us/change: %s, JIT %.0f, GC and other native %.0f",
            stages, jitSeconds * 1e6 / items, Math.max(0, jvmSeconds - staged - jitSeconds) * 1e6 / items);
    }

    private static Map<Long, Long> cpuByThread() {
        Map<Long, Long> cpu = new HashMap<>();
        for (long id : THREADS.getAllThreadIds()) {
            long nanos = THREADS.getThreadCpuTime(id);
            if (nanos >= 0) {
                cpu.put(id, nanos);
            }
        }
        return cpu;
    }
}
