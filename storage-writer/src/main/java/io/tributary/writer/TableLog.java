package io.tributary.writer;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Which Kafka log a topic name stands for: the cluster id and the topic's id (a topic deleted and created again
 * under the same name gets a new id; a new cluster, or a broker that lost its data, a new cluster id).
 *
 * @param clusterId the cluster id, as {@code describeCluster} reports it
 * @param topic     the topic name
 * @param topicId   the topic id, as {@code describeTopics} reports it
 */
public record TableLog(String clusterId, String topic, String topicId) {

    public TableLog {
        Objects.requireNonNull(clusterId, "clusterId");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(topicId, "topicId");
    }

    /**
     * The log {@code topic} stands for on {@code admin}'s cluster now.
     *
     * @throws KafkaException if the cluster does not answer or the topic does not exist
     */
    public static TableLog describe(Admin admin, String topic) throws InterruptedException {
        String clusterId = clusterId(admin);
        return find(admin, clusterId, topic).orElseThrow(() -> new KafkaException("Topic " + topic
            + " does not exist on cluster " + clusterId));
    }

    /**
     * The id of {@code admin}'s cluster.
     *
     * @throws KafkaException if the cluster does not answer
     */
    public static String clusterId(Admin admin) throws InterruptedException {
        try {
            return admin.describeCluster().clusterId().get();
        } catch (ExecutionException e) {
            throw new KafkaException("Cannot describe the cluster", e.getCause());
        }
    }

    /**
     * The log {@code topic} stands for on {@code admin}'s cluster ({@code clusterId}), or empty if that cluster has
     * no topic of that name.
     *
     * @throws KafkaException if the cluster does not answer
     */
    public static Optional<TableLog> find(Admin admin, String clusterId, String topic) throws InterruptedException {
        try {
            TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
            return Optional.of(new TableLog(clusterId, topic, description.topicId().toString()));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return Optional.empty();
            }
            throw new KafkaException("Cannot describe the topic " + topic, e.getCause());
        }
    }

    @Override
    public String toString() {
        return "topic " + topic + " id " + topicId + " on cluster " + clusterId;
    }
}
