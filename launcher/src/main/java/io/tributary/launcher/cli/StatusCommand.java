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
import java.util.HashMap;
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

/** {@code tributary status}: groups, tables, workers and lag. */
@Command(name = "status", mixinStandardHelpOptions = true,
    description = "Show sync rules groups (state, checkpoint op_id and LSN, storage size and ops per live row), "
        + "tables (rows done / estimated, snapshot state), and the consumer groups doing the work (members, lag).")
public final class StatusCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Mixin
    private ConfigOption config;

    @Option(names = "--json", description = "one JSON object")
    private boolean json;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        TributaryConfig settings = config.load();
        TopicNames topics = Pipeline.topics(settings);
        Optional<Admin> admin = settings.kafka().bootstrapServers().map(bootstrap -> {
            Properties client = new Properties();
            client.putAll(settings.kafka().clientProperties());
            client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            return Admin.create(Environment.adminProperties(client));
        });
        Status status;
        Map<Long, StorageFigures> sizes;
        try (Connection storage = ConfigOption.connectStorage(settings, "status")) {
            status = Status.read(storage, admin, SnapshotWorkerConfig.consumerGroup(topics),
                StreamWorkerConfig.applicationId(topics), group -> group.consumerGroup(topics.prefix()));
            sizes = sizes(storage, status);
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

    /** Storage figures of every group whose storage exists (every op is read once to count live rows). */
    private static Map<Long, StorageFigures> sizes(Connection storage, Status status) throws SQLException {
        Map<Long, StorageFigures> sizes = new HashMap<>();
        for (SyncRulesGroup group : status.groups()) {
            if (group.state() != GroupState.TERMINATED) {
                sizes.put(group.id(), StorageFigures.of(storage, group.id()));
            }
        }
        return sizes;
    }

    private static ObjectNode toJson(Status status, Map<Long, StorageFigures> sizes) {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode groups = root.putArray("groups");
        for (SyncRulesGroup group : status.groups()) {
            ObjectNode node = groups.addObject().put("id", group.id()).put("state", group.state().name());
            group.checkpoint().ifPresentOrElse(checkpoint -> node.putObject("checkpoint")
                    .put("op_id", Long.toString(checkpoint.opId())).put("lsn", checkpoint.lsn()),
                () -> node.putNull("checkpoint"));
            StorageFigures size = sizes.get(group.id());
            if (size != null) {
                node.putObject("storage").put("bytes", size.bytes()).put("ops", size.ops())
                    .put("live_rows", size.liveRows()).put("ops_per_live_row", size.opsPerLiveRow());
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

    private static void printText(Status status, Map<Long, StorageFigures> sizes, PrintWriter out) {
        out.println("Sync rules groups:");
        if (status.groups().isEmpty()) {
            out.println("  none deployed (tributary deploy)");
        }
        for (SyncRulesGroup group : status.groups()) {
            out.printf("  %d %-10s %s%n", group.id(), group.state(), group.checkpoint()
                .map(c -> "checkpoint op_id " + c.opId() + ", LSN " + c.lsn()).orElse("no checkpoint yet"));
            StorageFigures size = sizes.get(group.id());
            if (size != null) {
                out.printf("    storage %d MiB, %d ops, %d live rows (%.2f ops per live row)%n",
                    size.bytes() / (1024 * 1024), size.ops(), size.liveRows(), size.opsPerLiveRow());
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
}
