package io.tributary.bench.memory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
 * highest sum of {@code Pss} ({@code /proc/<pid>/smaps_rollup}) over the postmaster and its children, sampled every
 * 250 ms, so a backend that lives shorter than that may be missed. Thread-safe; {@link #close()} stops sampling.
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
        return new PeakRss(statusField(Path.of("/proc/self/status"), "VmHWM:").orElse(0L), postgresPeak.get());
    }

    @Override
    public void close() {
        sampler.shutdownNow();
    }

    private void sample() {
        long total = 0;
        try {
            for (long pid : serverProcesses()) {
                total += pss(pid);
            }
        } catch (IOException e) {
            return;
        }
        long sum = total;
        postgresPeak.accumulateAndGet(sum, Math::max);
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

    private static long pss(long pid) {
        Path process = PROC.resolve(Long.toString(pid));
        return statusField(process.resolve("smaps_rollup"), "Pss:")
            .or(() -> statusField(process.resolve("status"), "VmRSS:")).orElse(0L);
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

    private static Optional<Long> statusField(Path file, String field) {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.filter(l -> l.startsWith(field)).findFirst()
                .map(l -> Long.parseLong(l.substring(field.length()).trim().split("\\s+")[0]));
        } catch (IOException | UncheckedIOException | NumberFormatException e) {
            return Optional.empty();
        }
    }
}
