package io.tributary.launcher.inspect;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * A consumer group as autoscalers and operators see it: members and lag (end offset minus committed offset,
 * summed over its partitions). Storage writers keep their exact offsets in storage and commit to Kafka after
 * each batch, so Kafka's view is at most one batch behind.
 *
 * @param group the consumer group id
 * @param members live members (processes x work loops)
 * @param lag records not yet consumed
 */
public record ConsumerGroupStatus(String group, int members, long lag) {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    /**
     * Reads the status of consumer groups.
     *
     * @throws IllegalStateException if Kafka does not answer in time
     */
    public static List<ConsumerGroupStatus> read(Admin admin, List<String> groups) {
        try {
            Map<String, ConsumerGroupDescription> descriptions = admin.describeConsumerGroups(groups).all()
                .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            Map<String, Map<TopicPartition, OffsetAndMetadata>> committed = new HashMap<>();
            for (String group : groups) {
                committed.put(group, admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
            }
            Map<TopicPartition, OffsetSpec> latest = committed.values().stream()
                .flatMap(offsets -> offsets.keySet().stream())
                .distinct()
                .collect(Collectors.toMap(partition -> partition, partition -> OffsetSpec.latest()));
            Map<TopicPartition, ListOffsetsResultInfo> ends = latest.isEmpty() ? Map.of()
                : admin.listOffsets(latest).all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            return groups.stream().map(group -> {
                long lag = committed.get(group).entrySet().stream()
                    .filter(entry -> entry.getValue() != null && ends.containsKey(entry.getKey()))
                    .mapToLong(entry -> Math.max(0, ends.get(entry.getKey()).offset() - entry.getValue().offset()))
                    .sum();
                ConsumerGroupDescription description = descriptions.get(group);
                return new ConsumerGroupStatus(group, description == null ? 0 : description.members().size(), lag);
            }).toList();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while reading consumer groups", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Kafka did not describe consumer groups " + groups + " within "
                + TIMEOUT.toSeconds() + " s: " + e.getMessage(), e);
        }
    }
}
