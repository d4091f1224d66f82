package io.tributary.bench.memory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Peak memory per measurement, from Linux {@code /proc}: {@link #reset()} before a measurement, {@link #peak()}
 * after it. The JVM's peak is its {@code VmHWM}, reset through {@code /proc/self/clear_refs} (where the kernel
 * refuses, the peak is since JVM start and {@link #jvmPeakResettable()} says so). The Postgres server's peak is the
 * highest, over samples every 250 ms, of its private memory summed over the postmaster and its children
 * ({@code RssAnon}) plus the largest shared part of one of them ({@code RssFile + RssShmem}: shared buffers and
 * the binary, which they all map), so shared pages count once. A backend that lives shorter than 250 ms may be
 * missed. The counters come from {@code /proc/<pid>/status}, which the kernel keeps up to date; the sum of
 * {@code Pss} over {@code smaps_rollup} gives about the same figure but walks every page table, and cost 11% of
 * the bench JVM's CPU during a 1M-row snapshot. Thread-safe; {@link #close()} stops sampling.
 */
public final class MemoryProbe implements AutoCloseable {

    private static final Path PROC = Path.of("/proc");

    private final long postmasterPid;
    private final ScheduledExecutorService sampler;
    private final AtomicLong postgresPeak = new AtomicLong();
    private final boolean jvmPeakResettable;

    private MemoryProbe(long postmasterPid) {
        this.postmasterPid = postmasterPid;
        this.jvmPeakResettable = resetJvmPeak();
        this.sampler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "bench-memory-probe");
            t.setDaemon(true);
            return t;
        });
        sampler.scheduleAtFixedRate(this::sample, 0, 250, TimeUnit.MILLISECONDS);
    }

    /** Starts sampling the Postgres server whose postmaster has {@code postmasterPid}. */
    public static MemoryProbe start(long postmasterPid) {
        return new MemoryProbe(postmasterPid);
    }

    /** The parent of {@code pid} (for a backend: the postmaster), from {@code /proc/<pid>/stat}. */
    public static long parentOf(long pid) {
        return stat(pid).map(MemoryProbe::parentPid)
            .orElseThrow(() -> new IllegalStateException("no process " + pid + " in /proc"));
    }

    /** Whether the JVM's peak could be reset (otherwise peaks are since JVM start). */
    public boolean jvmPeakResettable() {
        return jvmPeakResettable;
    }

    /** Starts a new measurement: resets the JVM's high-water mark and the sampled Postgres peak. */
    public void reset() {
        resetJvmPeak();
        postgresPeak.set(0);
        sample();
    }

    /** The peaks since the last {@link #reset()}. */
    public PeakRss peak() {
        sample();
        return new PeakRss(statusKib(Path.of("/proc/self/status")).getOrDefault("VmHWM", 0L), postgresPeak.get());
    }

    @Override
    public void close() {
        sampler.shutdownNow();
    }

    private void sample() {
        long privateKib = 0;
        long sharedKib = 0;
        try {
            for (long pid : serverProcesses()) {
                Map<String, Long> status = statusKib(PROC.resolve(pid + "/status"));
                privateKib += status.getOrDefault("RssAnon", 0L);
                sharedKib = Math.max(sharedKib,
                    status.getOrDefault("RssFile", 0L) + status.getOrDefault("RssShmem", 0L));
            }
        } catch (IOException e) {
            return;
        }
        postgresPeak.accumulateAndGet(privateKib + sharedKib, Math::max);
    }

    /**
     * The postmaster and its children: the kernel's list of its children where it keeps one (cheap: the bench
     * shares two cores with what it measures), else every process of {@code /proc} whose parent it is.
     */
    List<Long> serverProcesses() throws IOException {
        List<Long> pids = new ArrayList<>();
        pids.add(postmasterPid);
        Path children = PROC.resolve(postmasterPid + "/task/" + postmasterPid + "/children");
        if (Files.isReadable(children)) {
            for (String pid : Files.readString(children).trim().split("\\s+")) {
                if (!pid.isEmpty()) {
                    pids.add(Long.parseLong(pid));
                }
            }
            return pids;
        }
        try (Stream<Path> processes = Files.list(PROC)) {
            processes.map(p -> p.getFileName().toString()).filter(n -> n.matches("\\d+")).map(Long::parseLong)
                .filter(pid -> stat(pid).map(MemoryProbe::parentPid).orElse(-1L) == postmasterPid)
                .forEach(pids::add);
        }
        return pids;
    }

    private static boolean resetJvmPeak() {
        try {
            Files.writeString(Path.of("/proc/self/clear_refs"), "5");
            return true;
        } catch (IOException | SecurityException e) {
            return false;
        }
    }

    private static Optional<String> stat(long pid) {
        try {
            return Optional.of(Files.readString(PROC.resolve(pid + "/stat")));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static long parentPid(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[1]);
    }

    /** The {@code kB} fields of a {@code /proc/<pid>/status} file; empty when the process is gone. */
    private static Map<String, Long> statusKib(Path file) {
        Map<String, Long> fields = new HashMap<>();
        try {
            for (String line : Files.readAllLines(file)) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.endsWith(" kB")) {
                    String kib = line.substring(colon + 1, line.length() - 3).trim();
                    fields.put(line.substring(0, colon), Long.parseLong(kib));
                }
            }
        } catch (IOException | NumberFormatException e) {
            return Map.of();
        }
        return fields;
    }
}
