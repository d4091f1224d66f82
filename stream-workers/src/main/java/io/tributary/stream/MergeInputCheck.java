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
 * {@code offsets.retention.minutes}), and what it had not read is gone. A stream worker checks this at its start
 * ({@link #find}) and, while it runs, before a stream thread moves input partitions to the log's start
 * ({@link #atReset}).
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
        return answer(offsetsOf(names), timeout, () -> {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(groupId)
                .partitionsToOffsetAndMetadata().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            Map<String, TopicDescription> described = admin.describeTopics(inputs(names)).allTopicNames()
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            Map<TopicPartition, Long> read = new HashMap<>();
            List<TopicPartition> unread = new ArrayList<>();
            for (TopicDescription topic : described.values()) {
                topic.partitions().forEach(p -> {
                    TopicPartition partition = new TopicPartition(topic.name(), p.partition());
                    OffsetAndMetadata offset = committed.get(partition);
                    if (offset != null) {
                        read.put(partition, offset.offset());
                    } else {
                        unread.add(partition);
                    }
                });
            }
            return losses(admin, consumerSettings, names, "committed offset", read, unread, timeout);
        });
    }

    /**
     * The input partitions a stream thread is about to move to the log's start whose unread records are gone: the
     * thread's position of each partition in {@code outOfRange} (where Kafka found it outside the log) is checked
     * as {@link #find} checks a committed offset, and each partition of {@code changes} among the others (the group
     * has no committed offset for them) against the merge state.
     *
     * @param partitions the partitions being moved, {@code outOfRange}'s among them
     * @throws StreamWorkerException if the cluster does not answer within {@code timeout}
     */
    public static List<Loss> atReset(Admin admin, Map<String, Object> consumerSettings, TopicNames names,
                                     Collection<TopicPartition> partitions, Map<TopicPartition, Long> outOfRange,
                                     Duration timeout) {
        List<TopicPartition> withoutOffset = partitions.stream().filter(p -> !outOfRange.containsKey(p)).toList();
        return answer(offsetsOf(names), timeout,
            () -> losses(admin, consumerSettings, names, "position", outOfRange, withoutOffset, timeout));
    }

    /**
     * The losses among {@code read} (an input partition and the offset the group reads it from, a position called
     * {@code what}) and {@code unread} (input partitions the group never read), sorted by partition.
     */
    private static List<Loss> losses(Admin admin, Map<String, Object> consumerSettings, TopicNames names,
                                      String what, Map<TopicPartition, Long> read, List<TopicPartition> unread,
                                      Duration timeout)
        throws ExecutionException, TimeoutException, InterruptedException {
        List<TopicPartition> unreadChanges = unread.stream()
            .filter(partition -> partition.topic().equals(names.changes())).toList();
        List<Loss> losses = new ArrayList<>(withoutOffsets(consumerSettings, admin,
            StreamWorkerConfig.applicationId(names), names.changes(), unreadChanges, timeout));
        if (!read.isEmpty()) {
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> starts = offsets(admin, read.keySet(),
                OffsetSpec.earliest(), timeout);
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = offsets(admin, read.keySet(),
                OffsetSpec.latest(), timeout);
            read.forEach((partition, offset) -> {
                long start = starts.get(partition).offset();
                long end = ends.get(partition).offset();
                if (offset < start || offset > end) {
                    losses.add(new Loss(partition, what + " " + offset + ", the log now holds offsets " + start
                        + " to " + end + (offset < start ? " (" + (start - offset) + " removed unread)"
                        : " (the log is shorter than what was read from it: it lost records or was created again)")));
                }
            });
        }
        losses.sort(Comparator.comparing(loss -> loss.partition().toString()));
        return losses;
    }

    /** A question to the Kafka cluster. */
    interface Question<T> {
        T ask() throws ExecutionException, TimeoutException, InterruptedException;
    }

    /**
     * The answer to {@code question}, which reads {@code what} (e.g. {@code the Kafka cluster's id}) within
     * {@code timeout}.
     *
     * @throws StreamWorkerException if the cluster failed or did not answer in time
     */
    static <T> T answer(String what, Duration timeout, Question<T> question) {
        try {
            return question.ask();
        } catch (ExecutionException e) {
            throw new StreamWorkerException("Cannot read " + what + ": " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new StreamWorkerException("The Kafka cluster did not tell " + what + " within " + timeout, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StreamWorkerException("Interrupted while reading " + what, e);
        }
    }

    /** The merge's input topics. */
    private static List<String> inputs(TopicNames names) {
        return List.of(names.changes(), names.snapshotRows());
    }

    private static String offsetsOf(TopicNames names) {
        return "the stream workers' offsets of " + inputs(names) + " (group " + StreamWorkerConfig.applicationId(names)
            + ")";
    }

    /**
     * The partitions of {@code changes} without a committed offset whose merge state holds a committed partition
     * state, which only records of {@code changes} write (read {@code read_committed}: a first transaction the
     * coordinator aborted leaves records in the changelog and the group no offset, with nothing lost; and snapshot
     * rows merged before the partition's first change leave table and chunk states only).
     */
    private static List<Loss> withoutOffsets(Map<String, Object> consumerSettings, Admin admin, String groupId,
                                             String changes, List<TopicPartition> unread, Duration timeout)
        throws ExecutionException, TimeoutException, InterruptedException {
        String changelog = groupId + "-" + MergeTopology.STATE_STORE + "-changelog";
        if (unread.isEmpty() || !admin.listTopics().names().get(timeout.toMillis(), TimeUnit.MILLISECONDS)
            .contains(changelog)) {
            return List.of();
        }
        List<TopicPartition> states = unread.stream()
            .map(partition -> new TopicPartition(changelog, partition.partition())).toList();
        List<Loss> losses = new ArrayList<>();
        for (TopicPartition state : withPartitionState(consumerSettings, states, timeout)) {
            losses.add(new Loss(new TopicPartition(changes, state.partition()), "no committed offset,"
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
