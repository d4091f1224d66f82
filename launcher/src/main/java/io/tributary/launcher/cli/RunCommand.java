package io.tributary.launcher.cli;

import io.tributary.launcher.config.TributaryConfig;
import io.tributary.launcher.env.Environment;
import io.tributary.launcher.env.Role;
import io.tributary.launcher.env.StartupWait;
import io.tributary.launcher.lifecycle.RulesFile;
import io.tributary.launcher.logging.RoleConverter;
import io.tributary.launcher.run.Replication;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tributary run}: run replication roles, or everything on the embedded default. */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = {
        "Run replication. Without --config: the embedded default (embedded Kafka and Postgres, a sample dataset "
            + "and sample sync rules, all roles in one process). Each of Kafka, source and storage is embedded "
            + "only when the configuration names none.",
        "Keeps streaming until Ctrl-C (SIGTERM), unless --until-caught-up."})
public final class RunCommand implements Callable<Integer> {

    @Mixin
    private ConfigOption config;

    @Option(names = "--role", paramLabel = "ROLE", defaultValue = "all",
        description = "all (default), replication, replication:snapshot, replication:streaming, ingest, storage or api")
    private String role;

    @Option(names = "--until-caught-up",
        description = "exit 0 once the newest sync rules group is ACTIVE, its checkpoint covers the source as of "
            + "when its snapshot finished and the groups it replaced are cleared, after printing a summary")
    private boolean untilCaughtUp;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Role parsedRole;
        try {
            parsedRole = Role.fromCliName(role);
            RoleConverter.set(parsedRole.cliName());
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println(e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        TributaryConfig settings = config.load();
        settings.syncRules().ifPresent(RulesFile::read);
        PrintWriter out = spec.commandLine().getOut();
        try (Environment environment = Environment.start(settings, StartupWait.upTo(settings.startupWait()))) {
            return Replication.run(settings, environment, parsedRole, untilCaughtUp, out);
        }
    }
}
