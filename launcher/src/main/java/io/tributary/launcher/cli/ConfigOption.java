package io.tributary.launcher.cli;

import io.tributary.launcher.config.ConfigException;
import io.tributary.launcher.config.ConfigLoader;
import io.tributary.launcher.config.JdbcEndpoint;
import io.tributary.launcher.config.TributaryConfig;
import io.tributary.launcher.env.Environment;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Option;

/** The {@code --config FILE} option every command shares; environment variables override the file. */
public final class ConfigOption {

    @Option(names = {"-c", "--config"}, paramLabel = "FILE",
        description = "YAML config file; every key can be overridden by an environment variable "
            + "(TRIBUTARY_SOURCE_URL for source.url, ...). Without it: the embedded default.")
    private Path file;

    /** The config file given, if any: to repeat it in a command a message suggests. */
    public Optional<Path> file() {
        return Optional.ofNullable(file);
    }

    /** Loads and validates the configuration (throws ConfigException listing every problem). */
    public TributaryConfig load() {
        return ConfigLoader.load(Optional.ofNullable(file), System.getenv());
    }

    /**
     * A connection to the configured storage, for commands that only inspect or change storage.
     *
     * @param command the command's name, for the message
     * @throws ConfigException if no storage is configured (the embedded one only lives inside {@code run})
     * @throws io.tributary.launcher.env.ServiceUnavailableException if it cannot be reached
     */
    public static Connection connectStorage(TributaryConfig settings, String command) {
        JdbcEndpoint storage = settings.storage().orElseThrow(() -> new ConfigException(List.of(command + " needs "
            + "storage.url (or TRIBUTARY_STORAGE_URL): the embedded storage only lives inside `tributary run`")));
        return Environment.connectOrFail("storage", storage, "storage.url");
    }

    /**
     * A connection to the configured source, for commands that read its catalog.
     *
     * @param command the command's name, for the message
     * @throws ConfigException if no source is configured (the embedded one only lives inside {@code run})
     * @throws io.tributary.launcher.env.ServiceUnavailableException if it cannot be reached
     */
    public static Connection connectSource(TributaryConfig settings, String command) {
        JdbcEndpoint source = settings.source().orElseThrow(() -> new ConfigException(List.of(command + " needs "
            + "source.url (or TRIBUTARY_SOURCE_URL) to check the rules against the source's primary keys: the "
            + "embedded source only lives inside `tributary run`")));
        return Environment.connectOrFail("source", source, "source.url");
    }

    /**
     * Checks that source, storage and Kafka are all configured, for commands that change the running pipeline from
     * outside it.
     *
     * @param command the command's name, for the message
     * @param note what to add to the message (may be empty)
     * @throws ConfigException naming the three settings (the embedded services only live inside {@code run})
     */
    public static void requireExternalServices(TributaryConfig settings, String command, String note) {
        if (settings.source().isEmpty() || settings.storage().isEmpty()
            || settings.kafka().bootstrapServers().isEmpty()) {
            throw new ConfigException(List.of(command + " needs source.url, storage.url and kafka.bootstrap_servers"
                + " (or their TRIBUTARY_* variables): embedded services only live inside `tributary run`" + note));
        }
    }
}
