package io.tributary.bench.probe;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

    /**
     * The {@code Rss*} and {@code VmHWM} fields of a {@code /proc/<pid>/status} file, in kB; empty when the process is
     * gone. The file is read whole into one array and scanned in place: the probe reads dozens of them four times a
     * second, and a reader with buffers of its own per file made the sampling thread one of the largest allocators of
     * the JVM it measures.
     */
    private static Map<String, Long> statusKib(Path file) {
        byte[] text;
        try {
            text = Files.readAllBytes(file);
        } catch (IOException e) {
            return Map.of();
        }
        Map<String, Long> fields = new HashMap<>();
        int start = 0;
        while (start < text.length) {
            int end = start;
            while (end < text.length && text[end] != '\n') {
                end++;
            }
            field(text, start, end).ifPresent(f -> fields.put(f.getKey(), f.getValue()));
            start = end + 1;
        }
        return fields;
    }

    /**
     * The name and kB value of the line {@code [start, end)} if it is {@code "Name:   123 kB"} and one the probe reads
     * (the {@code Rss*} and {@code VmHWM} lines).
     */
    private static Optional<Map.Entry<String, Long>> field(byte[] text, int start, int end) {
        if (end - start < 5 || !(text[start] == 'R' && text[start + 1] == 's' && text[start + 2] == 's'
            || text[start] == 'V' && text[start + 1] == 'm' && text[start + 2] == 'H')) {
            return Optional.empty();
        }
        int colon = start;
        while (colon < end && text[colon] != ':') {
            colon++;
        }
        if (colon == start || colon == end || end - start < 4 || text[end - 3] != ' ' || text[end - 2] != 'k'
            || text[end - 1] != 'B') {
            return Optional.empty();
        }
        long kib = 0;
        boolean digits = false;
        for (int i = colon + 1; i < end - 3; i++) {
            byte b = text[i];
            if (b >= '0' && b <= '9') {
                kib = kib * 10 + (b - '0');
                digits = true;
            } else if (b != ' ' && b != '\t') {
                return Optional.empty();
            }
        }
        return digits ? Optional.of(Map.entry(new String(text, start, colon - start, StandardCharsets.US_ASCII), kib))
            : Optional.empty();
    }
}
