package io.tributary.ingest.planner;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether Kafka removed records of {@code snapshot-tasks} since the planner last looked: the topic is another one
 * (deleted and created again, or a new cluster: another topic id) or a partition's log start moved (retention, or
 * records deleted). A task removed before a worker took it would leave its chunk, and its window, waiting for good,
 * so the planner then publishes the task of every chunk not DONE again. That is harmless for tasks still in the log:
 * a worker skips a DONE chunk, and of two attempts of a chunk the first to complete counts.
 *
 * <p>Used by the planner's rounds, which are serialized.
 */
final class TaskLogWatch {

    private static final Logger LOG = LoggerFactory.getLogger(TaskLogWatch.class);

    private final String topic;
    private final Duration timeout;
    private Uuid topicId;
    private Map<TopicPartition, Long> starts = Map.of();

    TaskLogWatch(String topic, Duration timeout) {
        this.topic = Objects.requireNonNull(topic, "topic");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    /**
     * Looks at the log; whether it lost records since the previous look (never at the first). A log that cannot be
     * described now (a deleted topic not created again, a cluster that does not answer) is left for the next look.
     */
    boolean lostRecords(Admin admin) {
        try {
            TopicDescription described = admin.describeTopics(List.of(topic)).allTopicNames()
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS).get(topic);
            Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
            described.partitions().forEach(p -> earliest.put(new TopicPartition(topic, p.partition()),
                OffsetSpec.earliest()));
            Map<TopicPartition, Long> now = new HashMap<>();
            admin.listOffsets(earliest).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .forEach((partition, info) -> now.put(partition, info.offset()));
            boolean lost = false;
            if (topicId != null && !topicId.equals(described.topicId())) {
                LOG.warn("{} is another topic now (topic id {}, {} before): it was deleted and created again, or the"
                    + " Kafka cluster was replaced; publishing the task of every chunk not done again", topic,
                    described.topicId(), topicId);
                lost = true;
            } else if (topicId != null) {
                Map<TopicPartition, Long> moved = new HashMap<>(now);
                moved.entrySet().removeIf(start -> start.getValue() <= starts.getOrDefault(start.getKey(), 0L));
                if (!moved.isEmpty()) {
                    LOG.warn("Kafka removed records of {} (the log starts now at {}, before at {}): publishing the"
                        + " task of every chunk not done again", topic, moved, starts);
                    lost = true;
                }
            }
            topicId = described.topicId();
            starts = now;
            return lost;
        } catch (ExecutionException | TimeoutException e) {
            LOG.debug("Cannot look at {} now: {}", topic, e.toString());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
