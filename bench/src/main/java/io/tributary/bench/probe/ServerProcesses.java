package io.tributary.bench.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** The processes of a Postgres server on this Linux machine, from {@code /proc}. */
public final class ServerProcesses {

    private static final Path PROC = Path.of("/proc");

    private ServerProcesses() {
    }

    /** The parent of {@code pid} (for a backend: the postmaster), from {@code /proc/<pid>/stat}. */
    public static long parentOf(long pid) {
        return stat(pid).map(ServerProcesses::parentPid)
            .orElseThrow(() -> new IllegalStateException("no process " + pid + " in /proc"));
    }

    /**
     * The postmaster and its children: the kernel's list of its children where it keeps one (cheap: the bench
     * shares two cores with what it measures), else every process of {@code /proc} whose parent it is.
     */
    public static List<Long> of(long postmasterPid) throws IOException {
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
                .filter(pid -> stat(pid).map(ServerProcesses::parentPid).orElse(-1L) == postmasterPid)
                .forEach(pids::add);
        }
        return pids;
    }

    /** CPU seconds (user + system) process {@code pid} used so far; 0 when it is gone. */
    public static double cpuSeconds(long pid) {
        return stat(pid).map(text -> {
            String[] fields = text.substring(text.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / 100.0;
        }).orElse(0.0);
    }

    /** The text of {@code /proc/<pid>/stat}; empty when the process is gone. */
    static Optional<String> stat(long pid) {
        return read(PROC.resolve(pid + "/stat"));
    }

    /** The text of a {@code /proc} file; empty when it is gone (its process or thread exited). */
    static Optional<String> read(Path file) {
        try {
            return Optional.of(Files.readString(file));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static long parentPid(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[1]);
    }
}
