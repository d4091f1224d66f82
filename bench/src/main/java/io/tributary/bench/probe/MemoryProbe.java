package io.tributary.bench.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Peak memory per measurement, from Linux {@code /proc}: {@link #reset()} before a measurement, {@link #peak()}
 * after it. The JVM's peak is its {@code VmHWM}, reset through {@code /proc/self/clear_refs} (where the kernel
 * refuses, the peak is since JVM start and {@link #jvmPeakResettable()} says so). The Postgres servers' peak is the
 * highest, over samples every 250 ms, of the sum over servers of their private memory summed over the postmaster
 * and its children ({@code RssAnon}) plus the largest shared part of one of them ({@code RssFile + RssShmem}:
 * shared buffers and the binary, which they all map), so a server's shared pages count once. A backend that
 * lives shorter than 250 ms may be missed. The counters come from {@code /proc/<pid>/status}, which the kernel
 * keeps up to date; the sum of {@code Pss} over {@code smaps_rollup} gives about the same figure but walks every
 * page table, and cost 11% of the bench JVM's CPU during a 1M-row snapshot. Thread-safe; {@link #close()}
 * stops sampling.
 */
public final class MemoryProbe implements AutoCloseable {

    private static final Path PROC = Path.of("/proc");

    private final List<Long> postmasterPids;
    private final ScheduledExecutorService sampler;
    private final AtomicLong postgresPeak = new AtomicLong();
    private final boolean jvmPeakResettable;

    private MemoryProbe(List<Long> postmasterPids) {
        this.postmasterPids = List.copyOf(postmasterPids);
        this.jvmPeakResettable = resetJvmPeak();
        this.sampler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "bench-memory-probe");
            t.setDaemon(true);
            return t;
        });
        sampler.scheduleAtFixedRate(this::sample, 0, 250, TimeUnit.MILLISECONDS);
    }

    /** Starts sampling the Postgres servers whose postmasters have {@code postmasterPids}. */
    public static MemoryProbe start(List<Long> postmasterPids) {
        return new MemoryProbe(postmasterPids);
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
        long totalKib = 0;
        try {
            for (long postmaster : postmasterPids) {
                long privateKib = 0;
                long sharedKib = 0;
                for (long pid : ServerProcesses.of(postmaster)) {
                    Map<String, Long> status = statusKib(PROC.resolve(pid + "/status"));
                    privateKib += status.getOrDefault("RssAnon", 0L);
                    sharedKib = Math.max(sharedKib,
                        status.getOrDefault("RssFile", 0L) + status.getOrDefault("RssShmem", 0L));
                }
                totalKib += privateKib + sharedKib;
            }
        } catch (IOException e) {
            return;
        }
        postgresPeak.accumulateAndGet(totalKib, Math::max);
    }

    private static boolean resetJvmPeak() {
        try {
            Files.writeString(Path.of("/proc/self/clear_refs"), "5");
            return true;
        } catch (IOException | SecurityException e) {
            return false;
        }
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
