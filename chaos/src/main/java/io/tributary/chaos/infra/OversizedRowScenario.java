package io.tributary.chaos.infra;

import io.tributary.chaos.harness.PipelineProcess;
import io.tributary.chaos.harness.PipelineSettings;
import io.tributary.chaos.harness.ProcessExit;
import io.tributary.chaos.harness.ProcessRole;
import io.tributary.chaos.run.Phase;
import io.tributary.chaos.workload.SourceHistory;
import io.tributary.postgres.PgEndpoint;
import io.tributary.storage.groups.Checkpoint;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.topics.TopicNames;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;

/**
 * {@code oversized-row}: while the group streams, the {@code changes} topic's {@code max.message.bytes} is set to
 * {@value #LOW_LIMIT} bytes and one transaction inserts a doc of about {@value #ROW_BYTES} bytes that the broker
 * refuses, while the workload goes on writing. The scenario requires the documented outcome: ingest stops, its log
 * naming the row and the limits to raise ("is too large for Kafka", "Raise the limits"); no checkpoint the group
 * publishes meanwhile holds the row (and the run's audit finds every one equal to the source as of its LSN, so none
 * holds later changes of that transaction's partitions either); the workload commits during the outage (counted).
 * Then it applies the operator's fix as the error says: raises the topic's limit above the row and starts ingest
 * again; a checkpoint holding the row must follow within {@link #RESUME_TIMEOUT}.
 */
public final class OversizedRowScenario implements InfraScenario {

    /** The {@code changes} topic's record batch limit during the fault, above any batch of the workload's rows. */
    static final int LOW_LIMIT = 400 * 1024;
    /** The limit the operator raises it to. */
    static final int RAISED_LIMIT = 2 * 1024 * 1024;
    /** The oversized row's body: random hex (lz4 does not shrink it), above {@link #LOW_LIMIT}. */
    static final int ROW_BYTES = 640_000;
    /** How long the pipeline stays stopped before the operator's fix, with the workload writing. */
    static final Duration OUTAGE = Duration.ofSeconds(8);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration RESUME_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration POLL = Duration.ofMillis(500);

    private final long seed;
    private volatile PipelineSettings settings;

    public OversizedRowScenario(long seed) {
        this.seed = seed;
    }

    @Override
    public String name() {
        return "oversized-row";
    }

    @Override
    public void inject(FaultContext context) throws Exception {
        settings = context.directSettings();
        if (!context.awaitStreaming(context.between(Duration.ofSeconds(2), Duration.ofSeconds(5)))) {
            return;
        }
        Phase hit = context.phase();
        String changes = new TopicNames(settings.topicPrefix()).changes();
        setMaxMessageBytes(changes, LOW_LIMIT);
        context.expectExits(ProcessRole.INGEST);
        String id = new UUID(seed, 0x0bad).toString();
        insertOversizedDoc(settings.source(), id);
        context.injected("max.message.bytes of " + changes + " set to " + LOW_LIMIT + ", doc " + id + " of "
            + ROW_BYTES + " bytes inserted", Phase.STREAMING, hit);
        ProcessExit exit = awaitIngestStopped(context);
        for (String expected : List.of("is too large for Kafka", "\"public\".\"docs\"", id, "Raise the limits",
            "max.message.bytes", "then restart")) {
            if (!exit.logTail().contains(expected)) {
                throw new IllegalStateException("oversized-row: ingest stopped without naming \"" + expected
                    + "\" in its error: " + exit);
            }
        }
        long group = context.newestGroup().orElseThrow().id();
        long writesBefore = SourceHistory.versions(settings.source());
        long until = System.nanoTime() + OUTAGE.toNanos();
        Optional<Checkpoint> last = Optional.empty();
        int seen = 0;
        while (System.nanoTime() < until) {
            Optional<Checkpoint> now = checkpoint(context, group);
            if (now.isPresent() && !now.equals(last)) {
                seen++;
                if (holdsRow(group, now.get(), id)) {
                    throw new IllegalStateException("oversized-row: group " + group + "'s checkpoint " + now.get()
                        + " holds doc " + id + ", which Kafka refused");
                }
                last = now;
            }
            context.hold(POLL);
        }
        long written = SourceHistory.versions(settings.source()) - writesBefore;
        if (written <= 0) {
            throw new IllegalStateException("oversized-row: the workload committed nothing while ingest was stopped");
        }
        context.log("oversized-row: ingest stopped (" + exit.name() + " exited with " + exit.exitCode() + "); "
            + seen + " checkpoints without the row while the workload wrote " + written + " row versions");
        setMaxMessageBytes(changes, RAISED_LIMIT);
        context.expectNoExits(ProcessRole.INGEST);
        List<PipelineProcess> stopped = context.pipeline().all().stream()
            .filter(p -> p.role() == ProcessRole.INGEST && p.name().equals(exit.name())).toList();
        stopped.forEach(context.pipeline()::restart);
        context.log("oversized-row: operator raised max.message.bytes of " + changes + " to " + RAISED_LIMIT
            + " and started ingest again");
        Checkpoint with = awaitRow(context, group, id);
        context.log("oversized-row: checkpoint " + with + " holds doc " + id);
    }

    private void setMaxMessageBytes(String topic, int bytes) throws InterruptedException {
        try (Admin admin = settings.admin()) {
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, topic), List.of(
                new AlterConfigOp(new ConfigEntry(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(bytes)),
                    AlterConfigOp.OpType.SET)))).all().get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("Cannot set max.message.bytes of " + topic, e.getCause());
        }
    }

    /** One transaction inserting doc {@code id} with a body of {@link #ROW_BYTES} random hex digits. */
    private static void insertOversizedDoc(PgEndpoint source, String id) throws SQLException {
        try (Connection c = source.connect(); PreparedStatement insert = c.prepareStatement(
            "INSERT INTO docs (id, owner, body, meta, version) SELECT ?::uuid, 'u0', string_agg(md5(random()::text),"
                + " ''), '{\"oversized\": true}', 1 FROM generate_series(1, ?)")) {
            insert.setString(1, id);
            insert.setInt(2, ROW_BYTES / 32);
            insert.executeUpdate();
        }
    }

    private static ProcessExit awaitIngestStopped(FaultContext context) {
        long deadline = System.nanoTime() + STOP_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            List<ProcessExit> exits = context.expectedExits();
            if (!exits.isEmpty()) {
                return exits.get(0);
            }
            context.hold(POLL);
        }
        throw new IllegalStateException("oversized-row: ingest did not stop within " + STOP_TIMEOUT + " of a row"
            + " Kafka refuses");
    }

    private static Optional<Checkpoint> checkpoint(FaultContext context, long group) {
        return context.newestGroup().filter(g -> g.id() == group).flatMap(SyncRulesGroup::checkpoint);
    }

    private Checkpoint awaitRow(FaultContext context, long group, String id) throws SQLException {
        long deadline = System.nanoTime() + RESUME_TIMEOUT.toNanos();
        Optional<Checkpoint> last = Optional.empty();
        while (System.nanoTime() < deadline) {
            last = checkpoint(context, group);
            if (last.isPresent() && holdsRow(group, last.get(), id)) {
                return last.get();
            }
            context.hold(POLL);
        }
        throw new IllegalStateException("oversized-row: no checkpoint of group " + group + " holds doc " + id
            + " within " + RESUME_TIMEOUT + " of the raised limit and ingest's restart (last " + last + ")");
    }

    /** Whether the ops at or below {@code checkpoint} put doc {@code id} in a bucket. */
    private boolean holdsRow(long group, Checkpoint checkpoint, String id) throws SQLException {
        try (Connection c = settings.storage().connect(); PreparedStatement select = c.prepareStatement(
            "SELECT count(*) FROM tributary.bucket_data WHERE group_id = ? AND op_id <= ? AND source_table = 'docs'"
                + " AND row_id = ? AND op = 1")) {
            select.setLong(1, group);
            select.setLong(2, checkpoint.opId());
            select.setString(3, id);
            try (ResultSet rs = select.executeQuery()) {
                rs.next();
                return rs.getLong(1) > 0;
            }
        }
    }
}
