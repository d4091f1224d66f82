package io.tributary.launcher;

import io.tributary.launcher.cli.BucketsCommand;
import io.tributary.launcher.cli.CompactCommand;
import io.tributary.launcher.cli.DeployCommand;
import io.tributary.launcher.cli.RecoverCommand;
import io.tributary.launcher.cli.ExitCodes;
import io.tributary.launcher.cli.ResnapshotCommand;
import io.tributary.launcher.cli.RunCommand;
import io.tributary.launcher.cli.StatusCommand;
import io.tributary.launcher.cli.TokenCommand;
import io.tributary.launcher.config.ConfigException;
import io.tributary.launcher.env.ServiceUnavailableException;
import io.tributary.launcher.lifecycle.RulesFile;
import io.tributary.launcher.logging.RoleConverter;
import java.io.PrintWriter;
import java.util.TimeZone;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code tributary} command line. */
@Command(name = "tributary", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
    description = "Replicates Postgres into bucket storage for offline-first sync clients, through Kafka.",
    subcommands = {RunCommand.class, DeployCommand.class, StatusCommand.class, BucketsCommand.class,
        ResnapshotCommand.class, RecoverCommand.class, CompactCommand.class, TokenCommand.class})
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        // Debezium decodes some temporal values through the JVM's default zone; the canonical encoding is UTC.
        TimeZone.setDefault(TimeZone.getTimeZone("UTC"));
        System.exit(execute(args));
    }

    /** Runs the command line on the process's streams and returns the exit code (see {@link ExitCodes}). */
    public static int execute(String... args) {
        return execute(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
    }

    /** Runs the command line with the given output and error streams and returns the exit code. */
    public static int execute(PrintWriter out, PrintWriter err, String... args) {
        CommandLine commandLine = new CommandLine(new Main()).setOut(out).setErr(err);
        commandLine.setExecutionExceptionHandler((exception, cmd, parsed) -> {
            if (exception instanceof ConfigException) {
                cmd.getErr().println(exception.getMessage());
                return ExitCodes.BAD_INPUT;
            }
            if (exception instanceof RulesFile.InvalidRulesException) {
                cmd.getErr().println(exception.getMessage());
                return ExitCodes.BAD_INPUT;
            }
            if (exception instanceof ServiceUnavailableException) {
                cmd.getErr().println(exception.getMessage());
                return ExitCodes.UNAVAILABLE;
            }
            throw exception;
        });
        if (args.length > 0 && commandLine.getSubcommands().containsKey(args[0])) {
            RoleConverter.set(args[0]);
        }
        return commandLine.execute(args);
    }

    /**
     * The version line of {@code --version}: the jar manifest's {@code Implementation-Version} and
     * {@code Implementation-Title}, or {@code unknown} when running from classes outside a jar.
     */
    static final class Version implements CommandLine.IVersionProvider {

        @Override
        public String[] getVersion() {
            Package main = Main.class.getPackage();
            String version = main.getImplementationVersion();
            String title = main.getImplementationTitle();
            String line = "tributary " + (version == null ? "unknown" : version)
                + (title == null ? "" : " (" + title + ")");
            return new String[] {line};
        }
    }
}
