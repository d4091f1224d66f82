package io.tributary.launcher.cli;

import io.tributary.launcher.config.TributaryConfig;
import io.tributary.storage.compact.BucketCompactor;
import io.tributary.storage.compact.CompactionResult;
import io.tributary.storage.compact.StorageFigures;
import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import java.io.PrintWriter;
import java.sql.Connection;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tributary compact --config FILE [--group ID]}: compacts bucket storage up to each group's published
 * checkpoint (superseded ops become MOVEs, leading ones fold into a CLEAR), in short passes beside the running
 * pipeline; every bucket checksum clients see stays the same.
 */
@Command(name = "compact", mixinStandardHelpOptions = true,
    description = {
        "Compact bucket storage up to the published checkpoint: ops superseded by a later op of the same row become"
            + " MOVEs (data dropped), a bucket's leading MOVE and REMOVE ops fold into one CLEAR. Bucket checksums"
            + " stay the same; runs in short transactions beside the running pipeline.",
        "Needs storage.url. Without --group, compacts every PROCESSING and ACTIVE group."})
public final class CompactCommand implements Callable<Integer> {

    @Mixin
    private ConfigOption config;

    @Option(names = "--group", paramLabel = "ID", description = "only this sync rules group")
    private Long group;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        TributaryConfig settings = config.load();
        PrintWriter out = spec.commandLine().getOut();
        try (Connection storage = ConfigOption.connectStorage(settings, "compact")) {
            List<SyncRulesGroup> groups = SyncRulesGroups.list(storage).stream()
                .filter(g -> group == null ? g.state() == GroupState.ACTIVE || g.state() == GroupState.PROCESSING
                    : g.id() == group)
                .toList();
            if (group != null && groups.isEmpty()) {
                spec.commandLine().getErr().println("No sync rules group " + group + " (tributary status lists them)");
                return ExitCodes.BAD_INPUT;
            }
            BucketCompactor compactor = BucketCompactor.ofBatch(settings.compaction().batchOps());
            for (SyncRulesGroup target : groups) {
                if (target.state() == GroupState.TERMINATED) {
                    out.println("Group " + target.id() + ": TERMINATED, its storage is gone");
                    continue;
                }
                StorageFigures before = StorageFigures.of(storage, target.id());
                CompactionResult result = compactor.compact(storage, target.id());
                StorageFigures after = StorageFigures.of(storage, target.id());
                if (result.checkpoint() == 0) {
                    out.println("Group " + target.id() + ": nothing compacted (no checkpoint yet, or another"
                        + " compaction of it is running)");
                    continue;
                }
                out.printf("Group %d: up to op %d, %d buckets, %d ops moved, %d folded into CLEAR, %d parameter"
                        + " lookup versions deleted; %d -> %d ops (%.2f -> %.2f per live row), %d -> %d bytes%n",
                    target.id(), result.checkpoint(), result.buckets(), result.moved(), result.cleared(),
                    result.parameterVersions(), before.ops(), after.ops(), before.opsPerLiveRow(),
                    after.opsPerLiveRow(), before.bytes(), after.bytes());
            }
        }
        out.flush();
        return ExitCodes.OK;
    }
}
