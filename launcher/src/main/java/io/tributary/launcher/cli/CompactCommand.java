package io.tributary.launcher.cli;

import io.tributary.launcher.config.TributaryConfig;
import io.tributary.storage.compact.BucketCompactor;
import io.tributary.storage.compact.CompactionResult;
import io.tributary.storage.compact.FragmentedBuckets;
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
        "Then names the fragmented buckets (more ops per live row than --fragmented-above: live rows sit before"
            + " MOVEs, which no CLEAR can fold) and the source UPDATE that defragments each: it re-puts the rows at"
            + " the bucket's end, so the next compaction folds everything before them.",
        "Needs storage.url. Without --group, compacts every PROCESSING and ACTIVE group."})
public final class CompactCommand implements Callable<Integer> {

    /** The default of {@code --fragmented-above}, ops per live row, here and in {@code tributary status}. */
    static final String FRAGMENTED_ABOVE_DEFAULT = "1.2";

    @Mixin
    private ConfigOption config;

    @Option(names = "--group", paramLabel = "ID", description = "only this sync rules group")
    private Long group;

    @Option(names = "--fragmented-above", paramLabel = "RATIO", defaultValue = FRAGMENTED_ABOVE_DEFAULT,
        description = "name buckets with more ops per live row than this after compaction (default: ${DEFAULT-VALUE})")
    private double fragmentedAbove;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        TributaryConfig settings = config.load();
        if (!fragmentationBoundValid(fragmentedAbove, spec)) {
            return ExitCodes.BAD_INPUT;
        }
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
                printFragmented(out, FragmentedBuckets.of(storage, target.id(), fragmentedAbove));
            }
        }
        out.flush();
        return ExitCodes.OK;
    }

    /**
     * Whether {@code bound} is a valid {@code --fragmented-above} (1 or more ops per live row); prints why not to
     * {@code spec}'s error stream.
     */
    static boolean fragmentationBoundValid(double bound, CommandSpec spec) {
        if (bound >= 1) {
            return true;
        }
        spec.commandLine().getErr().println("--fragmented-above " + bound + " is below 1: a bucket holds at least one"
            + " op per live row. Fix: give a ratio of 1 or more, e.g. " + FRAGMENTED_ABOVE_DEFAULT);
        return false;
    }

    private static void printFragmented(PrintWriter out, List<FragmentedBuckets.Bucket> buckets) {
        for (FragmentedBuckets.Bucket bucket : buckets) {
            out.printf("  Fragmented bucket %s: %d ops, %d live rows (%.2f per live row).%n", bucket.bucket(),
                bucket.ops(), bucket.liveRows(), bucket.opsPerLiveRow());
            if (bucket.stranded().isEmpty()) {
                out.println("    Its newest ops are above the checkpoint; compact again after the next one.");
                continue;
            }
            out.println("    Defragment it at the source (the id column and table as its query names them), then"
                + " compact again:");
            for (FragmentedBuckets.Stranded stranded : bucket.stranded()) {
                out.printf("    %s  -- %d live rows of %s before the bucket's last MOVE or REMOVE%n",
                    FragmentedBuckets.rewriteStatement(stranded), stranded.rows(), stranded.table());
            }
        }
    }
}
