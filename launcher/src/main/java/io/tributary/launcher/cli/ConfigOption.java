package io.tributary.launcher.cli;

import io.tributary.launcher.config.ConfigLoader;
import io.tributary.launcher.config.TributaryConfig;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/** The {@code --config FILE} option every command shares; environment variables override the file. */
public final class ConfigOption {

    @Option(names = {"-c", "--config"}, paramLabel = "FILE",
        description = "YAML config file; every key can be overridden by an environment variable "
            + "(TRIBUTARY_SOURCE_URL for source.url, ...). Without it: the embedded default.")
    private Path file;

    /** Loads and validates the configuration (throws ConfigException listing every problem). */
    public TributaryConfig load() {
        return ConfigLoader.load(Optional.ofNullable(file), System.getenv());
    }
}
