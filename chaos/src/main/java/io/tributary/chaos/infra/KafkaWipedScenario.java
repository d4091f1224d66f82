package io.tributary.chaos.infra;

import io.tributary.chaos.harness.PipelineSettings;
import io.tributary.chaos.harness.ProcessRole;
import io.tributary.chaos.run.Phase;
import io.tributary.chaos.services.RestartableKafka;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;

/**
 * {@code kafka-wiped}: the broker's disk is replaced while the pipeline runs: once streaming, the broker
 * ({@link RestartableKafka}) is killed, its data directory wiped and formatted as a new cluster (a new cluster id,
 * no topics, no consumer group offsets, no transaction state) and started again at the same address, while the
 * workload keeps committing. Ingest loses its committed source offsets ({@code ingest-offsets}) and its
 * transactional state, the stream workers their changelogs and committed offsets, the storage writers the log their
 * group read.
 *
 * <p>The scenario requires the documented path ({@link LostTableLog}): every storage writer process stops within
 * seconds with an error naming the group, the table log, both cluster ids and {@code tributary recover} (an
 * expected exit; a split deployment's storage role runs no planner); the lost ACTIVE group keeps serving its last
 * checkpoint, neither later nor earlier. Ingest, the snapshot workers and the stream workers run on (any exit of
 * theirs fails the run). The operator runs {@code tributary recover --config FILE} (it provisions the topics on the
 * new cluster, snapshots every table into the new log and deploys a copy of the group's rules), restarts the
 * snapshot workers (their idempotent producer ran against the old cluster: the new one can take a batch of it for
 * another producer's and drop it, so they would stop at their first chunk) and starts the storage writers again;
 * the replacement group must become ACTIVE at a checkpoint at or past the lost one, the lost group serving its
 * checkpoint until then. The run's audit covers every checkpoint of both groups, and once quiet
 * the new cluster's {@code rows} must equal the source; the writes committed meanwhile are counted.
 */
public final class KafkaWipedScenario implements InfraScenario {

    private final RestartableKafka kafka;
    private final LostTableLog loss = new LostTableLog(name());

    /** A scenario on {@code kafka}, the broker the run's environment points at. */
    public KafkaWipedScenario(RestartableKafka kafka) {
        this.kafka = kafka;
    }

    @Override
    public String name() {
        return "kafka-wiped";
    }

    @Override
    public void inject(FaultContext context) throws Exception {
        Optional<LostTableLog.Before> streaming = loss.beforeLoss(context);
        if (streaming.isEmpty()) {
            return;
        }
        LostTableLog.Before before = streaming.get();
        long lostGroup = before.lost().id();
        String was = clusterId(before.settings());
        long wiped = System.nanoTime();
        String now = kafka.replaceWithNewCluster();
        context.injected("the broker's data wiped and formatted as a new cluster (cluster id " + was + " then, "
            + now + " now) while group " + lostGroup + " is ACTIVE", Phase.STREAMING, before.hit());
        loss.requireRecovery(context, before, wiped,
            List.of("Sync rules group " + lostGroup, before.rows(), was, now, "tributary recover"),
            List.of(ProcessRole.SNAPSHOT_WORKER));
    }

    private static String clusterId(PipelineSettings settings) throws InterruptedException {
        try (Admin admin = settings.admin()) {
            return admin.describeCluster().clusterId().get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("kafka-wiped: cannot read the cluster id", e.getCause());
        }
    }
}
