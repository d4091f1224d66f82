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
 * CPU time of this JVM's threads by the pipeline role they work for, for the capacity model: a daemon thread samples
 * every thread's CPU time ({@link ThreadMXBean}, full thread names) every {@code 200 ms} between {@link #start()} and
 * {@link #stop()}, keeping each thread's last figure, so a thread that ends in between keeps its time up to its last
 * sample (at most one period lost). A thread's role comes from its name ({@link Role#of}). Thread-safe.
 */
public final class RoleCpu implements AutoCloseable {

    /** The roles of the capacity model, and what runs in the JVM besides them. */
    public enum Role {
        INGEST("ingest/planner"),
        SNAPSHOT_WORKERS("snapshot-workers"),
        STREAM_WORKERS("stream-workers"),
        STORAGE_WRITER("storage-writer"),
        BROKER("Kafka broker"),
        BENCH("bench probes"),
        JIT("JIT"),
        GC("GC"),
        OTHER("other");

        private final String label;

        Role(String label) {
            this.label = label;
        }

        /** How tables name the role. */
        public String label() {
            return label;
        }

        /**
         * The role of a thread named {@code name}: Tributary's threads and their Kafka clients carry the role in the
         * name (the client id or consumer group: {@code ...snapshot-workers...}, {@code ...StreamThread...},
         * {@code ...storage-writer...}); Debezium's engine runs its tasks on unnamed {@code pool-N-thread-M}
         * executor threads, the only such threads in a pipeline run; the broker's threads are Kafka's server thread
         * names; the bench's own measuring threads start with {@code bench-} (its launcher thread,
         * {@code bench-launcher}, runs the pipeline's main loop and counts as other).
         */
        public static Role of(String name) {
            String n = name.toLowerCase(Locale.ROOT);
            if (n.contains("compilerthread")) {
                return JIT;
            }
            if (n.startsWith("bench-") && !n.equals("bench-launcher")) {
                return BENCH;
            }
            if (n.startsWith("gc thread") || n.startsWith("g1 ") || n.contains("gc conc")
                || n.startsWith("vm thread")) {
                return GC;
            }
            if (n.contains("snapshot-workers")) {
                return SNAPSHOT_WORKERS;
            }
            if (n.contains("streamthread") || n.contains("stream-workers") || n.contains("-streams")) {
                return STREAM_WORKERS;
            }
            if (n.contains("writer") || n.contains("-checkpoint")) {
                return STORAGE_WRITER;
            }
            if (n.contains("ingest") || n.contains("planner") || n.contains("debezium") || n.contains("change-event")
                || n.startsWith("pool-")) {
                return INGEST;
            }
            if (n.startsWith("kafka-producer") || n.startsWith("kafka-admin") || n.startsWith("kafka-coordinator")) {
                return OTHER; // a client whose id does not name its role
            }
            if (n.startsWith("data-plane-kafka") || n.startsWith("kafka-") || n.startsWith("broker-")
                || n.startsWith("controller-") || n.startsWith("quorum-") || n.contains("coordinator")
                || n.startsWith("transaction-") || n.startsWith("txnmarker") || n.startsWith("expirationreaper")
                || n.startsWith("replicafetcher") || n.startsWith("logdir") || n.startsWith("addpartitionstotxn")
                || n.startsWith("persisterstate") || n.startsWith("cleaner-") || n.startsWith("metrics-meter")
                || n.startsWith("executor-") || n.startsWith("log-closing") || n.endsWith("-reaper")) {
                return BROKER;
            }
            return OTHER;
        }
    }

    private static final long PERIOD_MILLIS = 200;

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final Map<Long, Long> baseline = new HashMap<>();
    private final Map<Long, Long> last = new HashMap<>();
    private final Map<Long, String> names = new HashMap<>();
    private final Thread sampler;
    private volatile boolean running = true;

    private RoleCpu() {
        sampler = new Thread(this::sampleLoop, "bench-role-cpu");
        sampler.setDaemon(true);
    }

    /** Starts sampling now; what threads used before this call is not counted. */
    public static RoleCpu start() {
        RoleCpu probe = new RoleCpu();
        probe.sample(true);
        probe.sampler.start();
        return probe;
    }

    /** Stops sampling (a last sample first) and returns CPU seconds per role since {@link #start()}. */
    public Map<Role, Double> stop() {
        running = false;
        sampler.interrupt();
        try {
            sampler.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return now();
    }

    /** CPU seconds per role from {@link #start()} to now (a sample first); sampling goes on. */
    public Map<Role, Double> now() {
        sample(false);
        synchronized (this) {
            Map<Role, Double> seconds = new EnumMap<>(Role.class);
            for (Role role : Role.values()) {
                seconds.put(role, 0.0);
            }
            for (Map.Entry<Long, Long> entry : last.entrySet()) {
                long used = entry.getValue() - baseline.getOrDefault(entry.getKey(), 0L);
                seconds.merge(Role.of(names.get(entry.getKey())), used / 1e9, Double::sum);
            }
            return seconds;
        }
    }

    @Override
    public void close() {
        running = false;
        sampler.interrupt();
    }

    /** {@code "snapshot-workers 12.3, ..."}: microseconds per row of each role, for a note. */
    public static String perRow(Map<Role, Double> seconds, long rows) {
        return seconds.entrySet().stream().filter(e -> e.getValue() > 0)
            .map(e -> String.format(Locale.ROOT, "%s %.1f", e.getKey().label(), e.getValue() * 1e6 / rows))
            .collect(Collectors.joining(", "));
    }

    private void sampleLoop() {
        while (running) {
            try {
                Thread.sleep(PERIOD_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            sample(false);
        }
    }

    private synchronized void sample(boolean first) {
        long[] ids = threads.getAllThreadIds();
        ThreadInfo[] infos = threads.getThreadInfo(ids);
        for (int i = 0; i < ids.length; i++) {
            long cpu = threads.getThreadCpuTime(ids[i]);
            if (cpu < 0 || infos[i] == null) {
                continue;
            }
            names.put(ids[i], infos[i].getThreadName());
            last.put(ids[i], cpu);
            if (first) {
                baseline.put(ids[i], cpu);
            }
        }
    }
}
