package io.tributary.stream;

import io.tributary.topics.TopicNames;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.StreamsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a running stream worker checks before a stream thread moves input partitions to the log's start
 * ({@link CheckedResets}): on the Kafka cluster the worker started on, a loss {@link MergeInputCheck#atReset} finds
 * stops the thread, and with it the instance ({@link MergeInputLostException}, naming the partitions and the
 * recovery). On another cluster (Kafka replaced under the running worker, every log lost with it: the storage
 * writers find that and the planner snapshots every table again) the thread reads the new logs from their start.
 * A check the cluster does not answer (within {@link #TIMEOUT}) leaves the partitions where they are: Kafka Streams'
 * next poll finds them without a valid position again, and they are checked again.
 */
final class InputResetCheck implements CheckedResets.Check {

    /** How long the check waits for the cluster's answers. */
    static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static final Logger LOG = LoggerFactory.getLogger(InputResetCheck.class);

    /** Numbers the checks' clients: stream threads check at once, and two clients must not share a client id. */
    private static final AtomicLong CHECKS = new AtomicLong();

    private final StreamsConfig config;
    private final TopicNames names;
    private final String cluster;

    /**
     * @param cluster the id of the cluster the worker started on
     */
    InputResetCheck(StreamsConfig config, TopicNames names, String cluster) {
        this.config = config;
        this.names = names;
        this.cluster = cluster;
    }

    /** The id of the cluster {@code admin} talks to. */
    static String clusterId(Admin admin) {
        return MergeInputCheck.answer("the Kafka cluster's id", TIMEOUT,
            () -> admin.describeCluster().clusterId().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
    }

    @Override
    public boolean beforeReset(Collection<TopicPartition> partitions, Map<TopicPartition, Long> outOfRange) {
        List<MergeInputCheck.Loss> losses;
        String clientId = StreamWorkerConfig.applicationId(names) + "-reset-check-" + CHECKS.incrementAndGet();
        try (Admin admin = Admin.create(config.getAdminConfigs(clientId))) {
            String now = clusterId(admin);
            if (!now.equals(cluster)) {
                LOG.warn("Stream workers: Kafka cluster {} replaced cluster {} under the running worker; reading {}"
                    + " from the new logs' start (the storage writers find the lost table log and the planner"
                    + " snapshots every table again)", now, cluster, partitions);
                return true;
            }
            losses = MergeInputCheck.atReset(admin, config.getRestoreConsumerConfigs(clientId), names, partitions,
                outOfRange, TIMEOUT);
        } catch (StreamWorkerException e) {
            LOG.warn("Stream workers: cannot check {} before reading them from the log's start ({}); they stay where"
                + " they are, and the next poll checks them again", partitions, e.getMessage());
            return false;
        }
        if (!losses.isEmpty()) {
            throw new MergeInputLostException(StreamWorkerConfig.applicationId(names), losses);
        }
        if (!outOfRange.isEmpty()) {
            LOG.info("Stream workers: positions {} lay outside their logs, which still hold them: reading those"
                + " partitions from their start", outOfRange);
        }
        return true;
    }
}
