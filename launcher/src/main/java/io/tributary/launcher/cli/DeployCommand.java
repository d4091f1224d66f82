package io.tributary.launcher.cli;

import io.tributary.launcher.config.TributaryConfig;
import io.tributary.launcher.lifecycle.RowIdKeys;
import io.tributary.launcher.lifecycle.RulesFile;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.syncrules.SyncRules;
import io.tributary.writer.lifecycle.Deployments;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code tributary deploy --config FILE RULES.yaml}: validate sync rules and create a new group. */
@Command(name = "deploy", mixinStandardHelpOptions = true,
    description = {"Validate sync rules, also against the source's primary keys, and deploy them as a new group.",
        "The first group becomes ACTIVE when its first checkpoint covers all its tables; a later group replays "
            + "rows, becomes ACTIVE when caught up, and the previous one is stopped and cleared."})
public final class DeployCommand implements Callable<Integer> {

    @Mixin
    private ConfigOption config;

    @Parameters(index = "0", paramLabel = "RULES.yaml", description = "the sync rules file")
    private Path rules;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        String text = RulesFile.read(rules);
        TributaryConfig settings = config.load();
        try (Connection storage = ConfigOption.connectStorage(settings, "deploy");
             Connection source = ConfigOption.connectSource(settings, "deploy")) {
            RowIdKeys.check(source, SyncRules.parse(text), rules.toString());
            SyncRulesGroup group = Deployments.deploy(storage, text);
            spec.commandLine().getOut().println("Deployed " + rules + " as sync rules group " + group.id()
                + " (" + group.state() + ")");
        }
        return ExitCodes.OK;
    }
}
