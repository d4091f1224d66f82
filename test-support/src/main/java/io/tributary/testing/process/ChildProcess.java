package io.tributary.testing.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Child processes of a test or a harness: started with a whole environment of their own, output to a log file. */
public final class ChildProcess {

    private ChildProcess() {
    }

    /**
     * Starts {@code command} with exactly {@code environment}, its standard output and error written to {@code log}
     * (its directory created if missing).
     *
     * @throws UncheckedIOException naming {@code name} and the command if it cannot be started
     */
    public static Process start(String name, List<String> command, Map<String, String> environment, Path log) {
        try {
            Files.createDirectories(log.toAbsolutePath().getParent());
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile());
            builder.environment().clear();
            builder.environment().putAll(environment);
            return builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start " + name + ": " + command, e);
        }
    }
}
