package io.tributary.bench.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * CPU time of the bench JVM and of Postgres servers, from Linux {@code /proc}: {@link #total()} before and after
 * a measurement, then {@link CpuUse#since}. A row's CPU per row barely depends on what else the box runs, unlike
 * its wall time, so rows of runs on a loaded box still compare. The JVM's time is {@code /proc/self/stat}; its JIT
 * part sums the threads named {@code C1/C2 CompilerThread*}. A server's is its postmaster's own and its reaped
 * children's ({@code cutime}, {@code cstime}) plus each live child's; the servers' are summed. Reads a few small
 * files per call; thread-safe.
 */
public final class CpuProbe {

    private static final Path PROC = Path.of("/proc");
    private static final Path SELF = PROC.resolve("self");
    /** USER_HZ, the unit of {@code /proc} CPU times: 100 on every Linux architecture the JDK runs on. */
    private static final long TICKS_PER_SECOND = 100;

    private final List<Long> postmasterPids;

    private CpuProbe(List<Long> postmasterPids) {
        this.postmasterPids = List.copyOf(postmasterPids);
    }

    /** A probe of this JVM and the Postgres servers whose postmasters have {@code postmasterPids}. */
    public static CpuProbe of(List<Long> postmasterPids) {
        return new CpuProbe(postmasterPids);
    }

    /** The postmaster pids of the servers it measures, in the order given. */
    public List<Long> postmasterPids() {
        return postmasterPids;
    }

    /** CPU used so far; zeros where {@code /proc} cannot be read (not Linux). */
    public CpuUse total() {
        CpuUse self = jvm(SELF);
        double postgres = 0;
        for (long postmaster : postmasterPids) {
            try {
                for (long pid : ServerProcesses.of(postmaster)) {
                    postgres += ticks(PROC.resolve(pid + "/stat"), pid == postmaster);
                }
            } catch (IOException e) {
                continue; // the server is gone and uses nothing more; its time until then is lost with it
            }
        }
        return new CpuUse(self.jvmSeconds(), self.jitSeconds(), postgres / TICKS_PER_SECOND);
    }

    /**
     * CPU used so far by the JVM of process {@code pid} and its JIT compiler threads (Postgres 0); zeros once it is
     * gone.
     */
    public static CpuUse ofJvm(long pid) {
        return jvm(PROC.resolve(Long.toString(pid)));
    }

    private static CpuUse jvm(Path process) {
        double jvm = ticks(process.resolve("stat"), false);
        double jit = 0;
        try (Stream<Path> threads = Files.list(process.resolve("task"))) {
            for (Path thread : (Iterable<Path>) threads::iterator) {
                boolean compiler = ServerProcesses.read(thread.resolve("comm"))
                    .map(name -> name.contains("CompilerThre")).orElse(false);
                if (compiler) {
                    jit += ticks(thread.resolve("stat"), false);
                }
            }
        } catch (IOException e) {
            jit = 0;
        }
        return new CpuUse(jvm / TICKS_PER_SECOND, Math.min(jvm, jit) / TICKS_PER_SECOND, 0);
    }

    /** CPU seconds used so far by each server, in the order of {@link #postmasterPids()}; 0 for one gone. */
    public List<Double> serverSeconds() {
        List<Double> seconds = new java.util.ArrayList<>();
        for (long postmaster : postmasterPids) {
            double ticks = 0;
            try {
                for (long pid : ServerProcesses.of(postmaster)) {
                    ticks += ticks(PROC.resolve(pid + "/stat"), pid == postmaster);
                }
            } catch (IOException e) {
                ticks = 0;
            }
            seconds.add(ticks / TICKS_PER_SECOND);
        }
        return seconds;
    }

    /** utime + stime of a {@code stat} file, with its reaped children's when {@code withChildren}; 0 if gone. */
    private static long ticks(Path stat, boolean withChildren) {
        return ServerProcesses.read(stat).map(text -> {
            String[] fields = text.substring(text.lastIndexOf(')') + 2).split(" ");
            long own = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            return withChildren ? own + Long.parseLong(fields[13]) + Long.parseLong(fields[14]) : own;
        }).orElse(0L);
    }
}
