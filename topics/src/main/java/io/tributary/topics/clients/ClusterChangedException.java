package io.tributary.topics.clients;

import org.apache.kafka.common.KafkaException;

/**
 * A producer's metadata named another Kafka cluster than the one it started on: its acknowledgements since may come
 * from a cluster that took a batch of it for another producer's (the new cluster hands out its producer id again)
 * and dropped it. Not retriable with that producer.
 */
public final class ClusterChangedException extends KafkaException {

    private static final long serialVersionUID = 1L;

    ClusterChangedException(String message) {
        super(message);
    }
}
