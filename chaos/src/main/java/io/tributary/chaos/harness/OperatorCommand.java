package io.tributary.chaos.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A {@code tributary} command an operator runs against the pipeline from outside it ({@code deploy},
 * {@code resnapshot}, ...), with the runnable jar the processes run: its configuration in a YAML file
 * ({@code --config FILE}: the services, topic prefix, partitions, slot and publication of {@link PipelineSettings}),
 * the settings' extra {@code TRIBUTARY_*} variables on top, as the environment overrides the file. Its output goes to
 * {@code <logs>/<name>.log} (appended). Stateless; one call runs one process to its end.
 */
public final class OperatorCommand {

    private OperatorCommand() {
    }

    /**
     * The outcome of one command.
     *
     * @param exitCode the process's exit code
     * @param output   what it printed (stdout and stderr) in this call
     */
    public record Result(int exitCode, String output) {
    }

    /**
     * Runs {@code tributary <arguments>} with {@code --config FILE} inserted after the command's name.
     *
     * @param name     the log file's name, e.g. {@code resnapshot}
     * @param timeout  how long it may take
     * @throws IllegalStateException if it did not finish within {@code timeout} (it is killed)
     */
    public static Result run(PipelineSettings settings, String name, Duration timeout, String command,
                             String... arguments) throws IOException, InterruptedException {
        Files.createDirectories(settings.logs());
        Path config = settings.logs().resolve(name + "-config.yaml");
        Files.writeString(config, configYaml(settings));
        Path output = settings.logs().resolve(name + "-" + System.nanoTime() + ".out");
        List<String> line = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-XX:TieredStopAtLevel=1",
            "-jar", settings.jar().toAbsolutePath().toString(), command, "--config", config.toString()));
        line.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(line).redirectErrorStream(true)
            .redirectOutput(output.toFile());
        builder.environment().clear();
        builder.environment().put("LANG", "C.UTF-8");
        builder.environment().putAll(settings.extra());
        Process process = builder.start();
        boolean ended = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (!ended) {
            process.destroyForcibly().waitFor();
        }
        String printed = Files.readString(output);
        Files.writeString(settings.logs().resolve(name + ".log"), "$ tributary " + command + " --config " + config
            + " " + String.join(" ", arguments) + "\n" + printed, StandardOpenOption.CREATE,
            StandardOpenOption.APPEND);
        Files.delete(output);
        if (!ended) {
            throw new IllegalStateException("tributary " + command + " did not finish within " + timeout + ": "
                + printed);
        }
        return new Result(process.exitValue(), printed);
    }

    /** The configuration file an operator of this pipeline would write. */
    static String configYaml(PipelineSettings settings) {
        Map<String, String> env = settings.environment(ProcessRole.STORAGE_WRITER, 0);
        return "source:\n"
            + "  url: " + quoted(settings.source().jdbcUrl()) + "\n"
            + "  user: " + quoted(settings.source().user()) + "\n"
            + "  password: " + quoted(settings.source().password()) + "\n"
            + "storage:\n"
            + "  url: " + quoted(settings.storage().jdbcUrl()) + "\n"
            + "  user: " + quoted(settings.storage().user()) + "\n"
            + "  password: " + quoted(settings.storage().password()) + "\n"
            + "kafka:\n"
            + "  bootstrap_servers: " + quoted(settings.kafka()) + "\n"
            + "  topic_prefix: " + quoted(settings.topicPrefix()) + "\n"
            + "  partitions: " + settings.partitions() + "\n"
            + "  replication_factor: " + env.get("TRIBUTARY_KAFKA_REPLICATION_FACTOR") + "\n"
            + "replication:\n"
            + "  slot_name: " + quoted(settings.slotName()) + "\n"
            + "  publication_name: " + quoted(settings.slotName()) + "\n";
    }

    private static String quoted(String value) {
        return "'" + (value == null ? "" : value.replace("'", "''")) + "'";
    }
}
