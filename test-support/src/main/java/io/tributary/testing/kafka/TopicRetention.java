package io.tributary.testing.kafka;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/** What retention does to a topic's old segments, done at once: each partition's log start moved forward. */
public final class TopicRetention {

    private TopicRetention() {
    }

    /** Each partition's end offset of {@code topic}. */
    public static Map<TopicPartition, Long> ends(Admin admin, String topic)
        throws InterruptedException, ExecutionException {
        return offsets(admin, topic, OffsetSpec.latest());
    }

    /**
     * Moves each partition's log start to its offset in {@code ends}, as retention removes old segments; returns how
     * many records that removed.
     *
     * @throws IllegalStateException if a partition still starts before its offset afterwards
     */
    public static long removeBefore(Admin admin, String topic, Map<TopicPartition, Long> ends)
        throws InterruptedException, ExecutionException {
        Map<TopicPartition, Long> starts = offsets(admin, topic, OffsetSpec.earliest());
        Map<TopicPartition, RecordsToDelete> delete = new HashMap<>();
        long removed = 0;
        for (Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
            delete.put(end.getKey(), RecordsToDelete.beforeOffset(end.getValue()));
            removed += end.getValue() - starts.get(end.getKey());
        }
        admin.deleteRecords(delete).all().get();
        Map<TopicPartition, Long> after = offsets(admin, topic, OffsetSpec.earliest());
        for (Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
            if (after.get(end.getKey()) < end.getValue()) {
                throw new IllegalStateException(end.getKey() + " still starts at " + after.get(end.getKey())
                    + ", before " + end.getValue());
            }
        }
        return removed;
    }

    /**
     * How many offsets up to {@code ends} lie past consumer group {@code group}'s committed offsets (all of a
     * partition it committed none of): what removing the records before {@code ends} takes from it unread.
     */
    public static long unread(Admin admin, String group, Map<TopicPartition, Long> ends)
        throws InterruptedException, ExecutionException {
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
            .partitionsToOffsetAndMetadata().get();
        long unread = 0;
        for (Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
            OffsetAndMetadata offset = committed.get(end.getKey());
            unread += Math.max(0, end.getValue() - (offset == null ? 0 : offset.offset()));
        }
        return unread;
    }

    /** Removes every record of {@code topic}, as retention of all its segments would; returns how many. */
    public static long removeEveryRecord(Admin admin, String topic) throws InterruptedException, ExecutionException {
        return removeBefore(admin, topic, ends(admin, topic));
    }

    private static Map<TopicPartition, Long> offsets(Admin admin, String topic, OffsetSpec spec)
        throws InterruptedException, ExecutionException {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions()
            .forEach(p -> request.put(new TopicPartition(topic, p.partition()), spec));
        Map<TopicPartition, Long> offsets = new HashMap<>();
        admin.listOffsets(request).all().get().forEach((partition, info) -> offsets.put(partition, info.offset()));
        return offsets;
    }
}
