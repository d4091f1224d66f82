package io.tributary.launcher.lifecycle;

import io.tributary.stream.MergeInputCheck;
import io.tributary.stream.StreamWorkerConfig;
import io.tributary.topics.TopicNames;
import java.sql.Connection;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Recovery after Kafka lost input records the stream workers had not merged ({@link MergeInputCheck}): those
 * changes are missing from {@code rows}, so every table is snapshotted again in a window that replaces its rows
 * ({@link TableLogRecovery.TableRebuild}), and only then is the stream workers' group moved to the start of each
 * lost partition. Groups keep serving their last
 * checkpoint meanwhile; the checkpoints of a group wait for the new windows of the tables it reads. Needs the stream
 * workers stopped (their group empty). Idempotent: once the group is moved, the check finds nothing; if the move
 * failed, a second run snapshots again and moves it.
 */
public final class MergeInputRecovery {

    private static final Logger LOG = LoggerFactory.getLogger(MergeInputRecovery.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    /**
     * What one recovery did.
     *
     * @param losses the partitions found (empty: nothing was lost, nothing done)
     * @param tables how many tables were snapshotted again
     */
    public record Outcome(List<MergeInputCheck.Loss> losses, int tables) {

        /** Whether anything was lost. */
        public boolean recovered() {
            return !losses.isEmpty();
        }
    }

    private MergeInputRecovery() {
    }

    /**
     * Recovers the stream workers of {@code names} if Kafka lost input records they had not merged.
     *
     * @param consumerSettings Kafka settings of a consumer (the cluster and its security)
     * @param rebuild          how this process snapshots every table again
     * @param rebuilt          whether every table was just snapshotted again for another loss (then only the group
     *                         is moved)
     * @throws TableLogRecovery.UnsafeRecoveryException if a stream worker still runs
     * @throws Exception what {@code rebuild} threw (the group is not moved then; the next call tries again)
     */
    public static Outcome recover(Admin admin, Map<String, Object> consumerSettings, TopicNames names,
                                  Connection storage, TableLogRecovery.TableRebuild rebuild, boolean rebuilt)
        throws Exception {
        List<MergeInputCheck.Loss> losses = MergeInputCheck.find(admin, consumerSettings, names, TIMEOUT);
        if (losses.isEmpty()) {
            return new Outcome(losses, 0);
        }
        String group = StreamWorkerConfig.applicationId(names);
        String lost = losses.stream().map(MergeInputCheck.Loss::describe).collect(Collectors.joining("; "));
        ConsumerGroupDescription members = admin.describeConsumerGroups(List.of(group)).all()
            .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).get(group);
        if (!members.members().isEmpty()) {
            throw new TableLogRecovery.UnsafeRecoveryException("Kafka lost records the stream workers had not merged ("
                + lost + "), but " + members.members().size() + " stream worker threads of group " + group + " still"
                + " run: stop every stream worker, then run `tributary recover --config FILE` again");
        }
        int tables = 0;
        if (!rebuilt) {
            tables = rebuild.snapshotEveryTable(storage);
        }
        Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
        losses.forEach(loss -> earliest.put(loss.partition(), OffsetSpec.earliest()));
        Map<TopicPartition, OffsetAndMetadata> starts = new HashMap<>();
        admin.listOffsets(earliest).all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
            .forEach((partition, start) -> starts.put(partition, new OffsetAndMetadata(start.offset())));
        admin.alterConsumerGroupOffsets(group, starts).all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        LOG.warn("Kafka lost records the stream workers had not merged ({}): {} tables snapshotted again, group {}"
            + " moved to the start of those partitions", lost, tables, group);
        return new Outcome(losses, tables);
    }
}
