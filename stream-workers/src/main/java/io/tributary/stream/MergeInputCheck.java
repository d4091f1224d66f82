package io.tributary.stream;

import io.tributary.stream.internals.StoreKeys;
import io.tributary.stream.topology.MergeTopology;
import io.tributary.topics.TopicNames;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Whether the stream workers can go on where their group stopped: every partition of the merge's input logs
 * ({@code changes}, {@code snapshot-rows}) for which the group committed an offset must still hold the records from
 * that offset on. A committed offset below the log's start means records were removed before the merge read them
 * (retention ran while the stream workers were stopped longer than it, or records were deleted); one past the log's
 * end means the log lost records or was created again. Either way those changes never reached {@code rows}, and
 * reading on would lose them silently (the merge's sources start from the log's start when their offset is not in
 * the log). A partition of {@code changes} without a committed offset is read from its start: right for a new
 * group or a new cluster, but not when the merge has state for that partition (its changelog holds the partition's
 * state, which only records of {@code changes} write): then the log was deleted and created again (Kafka drops a
 * group's offsets with the topic) or the group's offsets expired (the group stayed empty longer than
 * {@code offsets.retention.minutes}), and what it had not read is gone.
 */
public final class MergeInputCheck {

    private static final byte[] PARTITION_STATE = StoreKeys.partition().get();

    /**
     * An input partition whose unread records are gone.
     *
     * @param partition the input partition
     * @param what      what was found, e.g. {@code committed offset 120, the log now holds offsets 400 to 410 (280
     *                  removed unread)}
     */
    public record Loss(TopicPartition partition, String what) {

        /** E.g. {@code changes-3: committed offset 120, ...}. */
        public String describe() {
            return partition + ": " + what;
        }
    }

    private MergeInputCheck() {
    }

    /**
     * The input partitions whose records the stream workers of the deployment {@code names} had not read are gone.
     *
     * @param consumerSettings Kafka settings of a consumer (the cluster and its security), to read the merge state
     * @throws StreamWorkerException if the cluster does not answer within {@code timeout} or a topic is missing
     */
    public static List<Loss> find(Admin admin, Map<String, Object> consumerSettings, TopicNames names,
                                  Duration timeout) {
        String groupId = StreamWorkerConfig.applicationId(names);
        List<String> inputs = List.of(names.changes(), names.snapshotRows());
        try {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(groupId)
                .partitionsToOffsetAndMetadata().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            Map<String, TopicDescription> described = admin.describeTopics(inputs).allTopicNames()
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            Map<TopicPartition, Long> read = new HashMap<>();
            for (TopicDescription topic : described.values()) {
                topic.partitions().forEach(p -> {
                    OffsetAndMetadata offset = committed.get(new TopicPartition(topic.name(), p.partition()));
                    if (offset != null) {
                        read.put(new TopicPartition(topic.name(), p.partition()), offset.offset());
                    }
                });
            }
            List<Loss> losses = new ArrayList<>(withoutOffsets(admin, consumerSettings, groupId,
                described.get(names.changes()), read, timeout));
            if (read.isEmpty()) {
                return losses;
            }
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> starts = offsets(admin, read.keySet(),
                OffsetSpec.earliest(), timeout);
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = offsets(admin, read.keySet(),
                OffsetSpec.latest(), timeout);
            read.forEach((partition, offset) -> {
                long start = starts.get(partition).offset();
                long end = ends.get(partition).offset();
                if (offset < start || offset > end) {
                    losses.add(new Loss(partition, "committed offset " + offset + ", the log now holds offsets "
                        + start + " to " + end + (offset < start ? " (" + (start - offset) + " removed unread)"
                        : " (the log is shorter than what was read from it: it lost records or was created again)")));
                }
            });
            losses.sort(Comparator.comparing(loss -> loss.partition().toString()));
            return losses;
        } catch (ExecutionException e) {
            throw new StreamWorkerException("Cannot read the stream workers' offsets of " + inputs + " (group "
                + groupId + "): " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new StreamWorkerException("The cluster did not tell the stream workers' offsets of " + inputs
                + " within " + timeout, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StreamWorkerException("Interrupted while reading the stream workers' offsets", e);
        }
    }

    /**
     * The partitions of {@code changes} without a committed offset whose merge state holds a committed partition
     * state, which only records of {@code changes} write (read {@code read_committed}: a first transaction the
     * coordinator aborted leaves records in the changelog and the group no offset, with nothing lost; and snapshot
     * rows merged before the partition's first change leave table and chunk states only).
     */
    private static List<Loss> withoutOffsets(Admin admin, Map<String, Object> consumerSettings, String groupId,
                                             TopicDescription changes, Map<TopicPartition, Long> read,
                                             Duration timeout)
        throws ExecutionException, TimeoutException, InterruptedException {
        String changelog = groupId + "-" + MergeTopology.STATE_STORE + "-changelog";
        List<TopicPartition> unread = new ArrayList<>();
        changes.partitions().forEach(p -> {
            if (!read.containsKey(new TopicPartition(changes.name(), p.partition()))) {
                unread.add(new TopicPartition(changelog, p.partition()));
            }
        });
        if (unread.isEmpty() || !admin.listTopics().names().get(timeout.toMillis(), TimeUnit.MILLISECONDS)
            .contains(changelog)) {
            return List.of();
        }
        List<Loss> losses = new ArrayList<>();
        for (TopicPartition state : withPartitionState(consumerSettings, unread, timeout)) {
            losses.add(new Loss(new TopicPartition(changes.name(), state.partition()), "no committed offset,"
                + " though the merge has state for it (in " + changelog + "): the log was deleted and created"
                + " again, or the group's offsets expired"));
        }
        return losses;
    }

    /** The changelog partitions among {@code partitions} that hold a committed partition state. */
    private static List<TopicPartition> withPartitionState(Map<String, Object> consumerSettings,
                                                             List<TopicPartition> partitions, Duration timeout)
        throws TimeoutException {
        Map<String, Object> settings = new HashMap<>(consumerSettings);
        settings.remove(ConsumerConfig.GROUP_ID_CONFIG);
        settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (Consumer<byte[], byte[]> consumer = new KafkaConsumer<>(settings, new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, timeout);
            Set<TopicPartition> open = new HashSet<>(partitions);
            List<TopicPartition> found = new ArrayList<>();
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                open.removeIf(partition -> consumer.position(partition, timeout) >= ends.get(partition));
                if (open.isEmpty()) {
                    return found;
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new TimeoutException("reading " + open + " to its end took longer than " + timeout);
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    TopicPartition partition = new TopicPartition(record.topic(), record.partition());
                    if (record.value() != null && Arrays.equals(record.key(), PARTITION_STATE)
                        && open.remove(partition)) {
                        found.add(partition);
                        consumer.pause(List.of(partition));
                    }
                }
            }
        }
    }

    private static Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> offsets(
        Admin admin, Collection<TopicPartition> partitions, OffsetSpec spec, Duration timeout)
        throws ExecutionException, TimeoutException, InterruptedException {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        partitions.forEach(partition -> request.put(partition, spec));
        return admin.listOffsets(request).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }
}
