package io.tributary.launcher.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.launcher.config.TributaryConfig;
import io.tributary.launcher.env.Environment;
import io.tributary.launcher.inspect.ConsumerGroupStatus;
import io.tributary.launcher.inspect.ReplicationSlot;
import io.tributary.launcher.inspect.Status;
import io.tributary.launcher.run.Pipeline;
import io.tributary.snapshot.SnapshotWorkerConfig;
import io.tributary.storage.compact.FragmentedBuckets;
import io.tributary.storage.compact.StorageFigures;
import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.progress.WindowProgress;
import io.tributary.stream.StreamWorkerConfig;
import io.tributary.topics.TopicNames;
import io.tributary.topics.messages.TableId;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tributary status}: groups, their storage and fragmented buckets, tables, workers and lag. */
@Command(name = "status", mixinStandardHelpOptions = true,
    description = "Show sync rules groups (state, checkpoint op_id and LSN, storage size and ops per live row, the"
        + " buckets above --fragmented-above ops per live row and the compact command for them), tables (rows done /"
        + " estimated, snapshot state), and the consumer groups doing the work (members, lag).")
public final class StatusCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Mixin
    private ConfigOption config;

    @Option(names = "--json", description = "one JSON object")
    private boolean json;

    @Option(names = "--fragmented-above", paramLabel = "RATIO", defaultValue = CompactCommand.FRAGMENTED_ABOVE_DEFAULT,
        description = "list buckets with more ops per live row than this (default: ${DEFAULT-VALUE})")
    private double fragmentedAbove;

    /** How many fragmented buckets of a group the text lists (the most ops per live row first); JSON has all. */
    static final int LISTED_BUCKETS = 10;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        TributaryConfig settings = config.load();
        if (!CompactCommand.fragmentationBoundValid(fragmentedAbove, spec)) {
            return ExitCodes.BAD_INPUT;
        }
        TopicNames topics = Pipeline.topics(settings);
        Optional<Admin> admin = settings.kafka().bootstrapServers().map(bootstrap -> {
            Properties client = new Properties();
            client.putAll(settings.kafka().clientProperties());
            client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            return Admin.create(Environment.adminProperties(client));
        });
        Status status;
        Map<Long, Storage> sizes;
        try (Connection storage = ConfigOption.connectStorage(settings, "status")) {
            status = Status.read(storage, admin, SnapshotWorkerConfig.consumerGroup(topics),
                StreamWorkerConfig.applicationId(topics), group -> group.consumerGroup(topics.prefix()));
            sizes = sizes(storage, status, fragmentedAbove);
        } finally {
            admin.ifPresent(Admin::close);
        }
        SlotReading slot = readSlot(settings);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            ObjectNode root = toJson(status, sizes);
            slot.slot().ifPresentOrElse(s -> root.putObject("replication_slot").put("name", s.name())
                    .put("active", s.active()).put("retained_wal_bytes", s.retainedWalBytes())
                    .put("confirmed_flush_lag_bytes", s.confirmedFlushLagBytes())
                    .put("wal_status", s.walStatus().orElse(null))
                    .put("above_warning", s.retainsMoreThan(settings.replication().slotWalWarningBytes())),
                () -> root.putNull("replication_slot"));
            slot.problem().ifPresent(problem -> root.put("replication_slot_problem", problem));
            out.println(JSON.writeValueAsString(root));
        } else {
            printText(status, sizes, out);
            out.println("Replication slot:");
            out.println("  " + slot.slot().map(s -> s.describe()
                    + (s.retainsMoreThan(settings.replication().slotWalWarningBytes())
                        ? "  WARNING: above replication.slot_wal_warning_mb" : ""))
                .orElse(slot.problem().map(problem -> "(not read: " + problem + ")")
                    .orElse(settings.replication().slotName() + " does not exist (yet)")));
        }
        out.flush();
        return ExitCodes.OK;
    }

    /** The command that compacts a group and names the source UPDATE for what compaction cannot shrink. */
    private String compactCommand(long groupId) {
        return "tributary compact" + config.file().map(file -> " --config " + file).orElse("") + " --group " + groupId
            + " --fragmented-above " + fragmentedAbove;
    }

    /** A group's storage figures and its buckets above the fragmentation bound, the most ops per live row first. */
    private record Storage(StorageFigures figures, List<FragmentedBuckets.Bucket> fragmented) {
    }

    /** The slot, or why it was not read; nothing when no source is configured (the embedded default). */
    private record SlotReading(Optional<ReplicationSlot> slot, Optional<String> problem) {
    }

    private static SlotReading readSlot(TributaryConfig settings) {
        if (settings.source().isEmpty()) {
            return new SlotReading(Optional.empty(), Optional.of("no source.url configured"));
        }
        try (Connection source = Environment.connect(settings.source().get())) {
            return new SlotReading(ReplicationSlot.read(source, settings.replication().slotName()), Optional.empty());
        } catch (SQLException | RuntimeException e) {
            return new SlotReading(Optional.empty(), Optional.of(e.getMessage()));
        }
    }

    /**
     * Storage figures and fragmented buckets of every group whose storage exists (every op is read once to count
     * live rows, and once more per bucket to find the fragmented ones).
     */
    private static Map<Long, Storage> sizes(Connection storage, Status status, double fragmentedAbove)
        throws SQLException {
        Map<Long, Storage> sizes = new HashMap<>();
        for (SyncRulesGroup group : status.groups()) {
            if (group.state() != GroupState.TERMINATED) {
                List<FragmentedBuckets.Bucket> fragmented = FragmentedBuckets.of(storage, group.id(), fragmentedAbove)
                    .stream().sorted(Comparator.comparingDouble(FragmentedBuckets.Bucket::opsPerLiveRow).reversed())
                    .toList();
                sizes.put(group.id(), new Storage(StorageFigures.of(storage, group.id()), fragmented));
            }
        }
        return sizes;
    }

    private static ObjectNode toJson(Status status, Map<Long, Storage> sizes) {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode groups = root.putArray("groups");
        for (SyncRulesGroup group : status.groups()) {
            ObjectNode node = groups.addObject().put("id", group.id()).put("state", group.state().name());
            group.checkpoint().ifPresentOrElse(checkpoint -> node.putObject("checkpoint")
                    .put("op_id", Long.toString(checkpoint.opId())).put("lsn", checkpoint.lsn()),
                () -> node.putNull("checkpoint"));
            Storage storage = sizes.get(group.id());
            if (storage != null) {
                StorageFigures size = storage.figures();
                node.putObject("storage").put("bytes", size.bytes()).put("ops", size.ops())
                    .put("live_rows", size.liveRows()).put("ops_per_live_row", size.opsPerLiveRow());
                ArrayNode fragmented = node.putArray("fragmented_buckets");
                for (FragmentedBuckets.Bucket bucket : storage.fragmented()) {
                    fragmented.addObject().put("bucket", bucket.bucket()).put("ops", bucket.ops())
                        .put("live_rows", bucket.liveRows()).put("ops_per_live_row", bucket.opsPerLiveRow());
                }
            }
        }
        ArrayNode tables = root.putArray("tables");
        for (WindowProgress window : status.tables()) {
            ObjectNode node = tables.addObject()
                .put("schema", window.window().schema()).put("table", window.window().table())
                .put("window", window.window().windowId()).put("state", window.state().name())
                .put("rows_done", window.rowsDone()).put("rows_estimated", window.rowsEstimated())
                .put("chunks_done", window.chunksDone()).put("chunks_planned", window.chunksPlanned());
            window.error().ifPresent(error -> node.put("error", error));
        }
        ArrayNode workers = root.putArray("consumer_groups");
        for (ConsumerGroupStatus group : status.workers()) {
            workers.addObject().put("group", group.group()).put("members", group.members()).put("lag", group.lag());
        }
        status.kafkaProblem().ifPresent(problem -> root.put("kafka_problem", problem));
        return root;
    }

    private void printText(Status status, Map<Long, Storage> sizes, PrintWriter out) {
        out.println("Sync rules groups:");
        if (status.groups().isEmpty()) {
            out.println("  none deployed (tributary deploy)");
        }
        for (SyncRulesGroup group : status.groups()) {
            out.printf("  %d %-10s %s%n", group.id(), group.state(), group.checkpoint()
                .map(c -> "checkpoint op_id " + c.opId() + ", LSN " + c.lsn()).orElse("no checkpoint yet"));
            Storage storage = sizes.get(group.id());
            if (storage != null) {
                StorageFigures size = storage.figures();
                out.printf("    storage %d MiB, %d ops, %d live rows (%.2f ops per live row)%n",
                    size.bytes() / (1024 * 1024), size.ops(), size.liveRows(), size.opsPerLiveRow());
                printFragmented(storage.fragmented(), out, group.id());
            }
        }
        out.println("Tables:");
        for (WindowProgress window : status.tables()) {
            out.printf("  %s %-12s %s rows, %d/%d chunks%s%n",
                TableId.of(window.window().schema(), window.window().table()).quoted(), window.state(),
                window.rowsText(), window.chunksDone(), window.chunksPlanned(),
                window.error().map(error -> ": " + error).orElse(""));
        }
        out.println("Consumer groups:");
        for (ConsumerGroupStatus group : status.workers()) {
            out.printf("  %-50s %3d members, lag %d%n", group.group(), group.members(), group.lag());
        }
        status.kafkaProblem().ifPresent(problem -> out.println("  (not read: " + problem + ")"));
    }

    private void printFragmented(List<FragmentedBuckets.Bucket> fragmented, PrintWriter out, long groupId) {
        if (fragmented.isEmpty()) {
            return;
        }
        out.printf("    %d bucket%s above %s ops per live row (fragmented):%n", fragmented.size(),
            fragmented.size() == 1 ? "" : "s", fragmentedAbove);
        for (FragmentedBuckets.Bucket bucket : fragmented.subList(0, Math.min(LISTED_BUCKETS, fragmented.size()))) {
            out.printf("      %s: %d ops, %d live rows (%.2f per live row)%n", bucket.bucket(), bucket.ops(),
                bucket.liveRows(), bucket.opsPerLiveRow());
        }
        if (fragmented.size() > LISTED_BUCKETS) {
            out.printf("      ... and %d more (--json lists all)%n", fragmented.size() - LISTED_BUCKETS);
        }
        out.println("    Fix: " + compactCommand(groupId));
        out.println("      compacts them, then prints for each bucket compaction cannot shrink the source UPDATE that"
            + " defragments it");
    }
}
