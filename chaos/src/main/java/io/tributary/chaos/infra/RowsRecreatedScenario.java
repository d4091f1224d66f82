package io.tributary.chaos.infra;

import io.tributary.chaos.harness.PipelineSettings;
import io.tributary.chaos.run.Phase;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;

/**
 * {@code rows-recreated}: Kafka loses the table log while the pipeline runs: once streaming, {@code rows} is
 * deleted and created again empty (same partitions and topic settings, a new topic id). The scenario requires the
 * documented path ({@link LostTableLog}): the storage writers detect it within seconds and their process (a split
 * deployment's storage role runs no planner) stops with an error naming the group, the topic and
 * {@code tributary recover} (an expected exit); the lost ACTIVE group keeps serving its last checkpoint, neither
 * later nor earlier. The stream workers run on: a stream thread whose Kafka transaction had records for the deleted
 * topic in flight is replaced and redoes its work (any stream worker exit fails the run). The operator runs
 * {@code tributary recover --config FILE} and starts the storage writers again; the replacement group (the same
 * rules, the log rebuilt by a snapshot of every table) must become ACTIVE at a checkpoint at or past the lost one,
 * the lost group serving its checkpoint until then. The run's audit covers every checkpoint of both groups; the
 * writes committed meanwhile are counted.
 */
public final class RowsRecreatedScenario implements InfraScenario {

    private static final Duration POLL = Duration.ofMillis(500);

    private final LostTableLog loss = new LostTableLog(name());

    @Override
    public String name() {
        return "rows-recreated";
    }

    @Override
    public void inject(FaultContext context) throws Exception {
        Optional<LostTableLog.Before> streaming = loss.beforeLoss(context);
        if (streaming.isEmpty()) {
            return;
        }
        LostTableLog.Before before = streaming.get();
        recreate(context, before.settings(), before.rows());
        long recreated = System.nanoTime();
        context.injected(before.rows() + " deleted and created again (a new topic id) while group "
            + before.lost().id() + " is ACTIVE", Phase.STREAMING, before.hit());
        loss.requireRecovery(context, before, recreated,
            List.of("Sync rules group " + before.lost().id(), before.rows(), "tributary recover"), List.of());
    }

    /** Deletes {@code rows} and creates it again with the same partitions and topic settings. */
    private static void recreate(FaultContext context, PipelineSettings settings, String rows)
        throws InterruptedException {
        try (Admin admin = settings.admin()) {
            int partitions = admin.describeTopics(List.of(rows)).allTopicNames().get().get(rows).partitions().size();
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, rows);
            Config config = admin.describeConfigs(List.of(resource)).all().get().get(resource);
            Map<String, String> configs = new HashMap<>();
            for (ConfigEntry entry : config.entries()) {
                if (entry.source() == ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG) {
                    configs.put(entry.name(), entry.value());
                }
            }
            admin.deleteTopics(List.of(rows)).all().get();
            long deadline = System.nanoTime() + LostTableLog.DETECT_TIMEOUT.toNanos();
            while (true) {
                try {
                    admin.createTopics(List.of(new NewTopic(rows, partitions, (short) 1).configs(configs))).all()
                        .get();
                    return;
                } catch (ExecutionException e) {
                    if (System.nanoTime() > deadline) {
                        throw e;
                    }
                    context.hold(POLL);
                }
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("rows-recreated: cannot delete and create " + rows + " again",
                e.getCause());
        }
    }
}
