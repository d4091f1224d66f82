package io.tributary.snapshot.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.tributary.snapshot.internals.FailureKind;
import io.tributary.snapshot.internals.Failures;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.TopicLayout;
import io.tributary.topics.TopicNames;
import io.tributary.topics.clients.ClusterChangedException;
import io.tributary.topics.clients.ClusterIdentity;
import io.tributary.topics.codec.TopicCodec;
import io.tributary.topics.messages.ChunkDone;
import io.tributary.topics.messages.ChunkRange;
import io.tributary.topics.messages.ChunkTask;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.PgSnapshot;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TaskPriority;
import io.tributary.topics.provision.TopicProvisioner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.ClusterResource;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * A chunk published through a producer whose metadata named another Kafka cluster than the one it started on (the
 * cluster replaced under the process, which can acknowledge a batch of it and drop it): the attempt fails as the
 * worker's own failure, and no done marker of it is sent, so no partition takes the chunk for complete.
 */
@RealServices
class ClusterChangeIT {

    private static final TopicLayout LAYOUT = TopicLayout.of(3, 3, (short) 1);

    @Test
    void aChunkWhoseProducerSawAnotherClusterFailsTheWorkerWithoutDoneMarkers(TestServices services)
        throws Exception {
        TopicNames topics = TopicNames.withPrefix(services.topicPrefix());
        try (Admin admin = Admin.create(services.kafkaProperties())) {
            TopicProvisioner.ensure(admin, topics, LAYOUT);
        }
        ClusterIdentity cluster = new ClusterIdentity();
        ChunkPublication publication;
        try (KafkaProducer<byte[], byte[]> producer =
                 new KafkaProducer<>(services.kafkaProperties(), cluster, new ByteArraySerializer())) {
            ChunkTask task = ChunkTask.first("w#0", TableId.of("public", "items"),
                new ChunkRange(Optional.empty(), Optional.empty()), TaskPriority.ACTIVE_SNAPSHOT, "w");
            publication = new ChunkPublisher(producer, cluster, topics, LAYOUT).begin(task, PgSnapshot.of(5, 5,
                List.of()));
            for (int id = 1; id <= 20; id++) {
                publication.send(KeyValues.of("[" + id + "]"), RowJson.of("{\"id\":" + id + "}"));
            }
            // what the producer's metadata reports once the broker at its address is another cluster
            cluster.onUpdate(new ClusterResource("a-replaced-cluster"));
            publication.finish(Lsn.of(100));
            while (!publication.settle()) {
                publication.pending().exceptionally(failure -> null).get(30, TimeUnit.SECONDS);
            }
        }

        ExecutionException failed = catchThrowableOfType(ExecutionException.class,
            () -> publication.acknowledged().get(30, TimeUnit.SECONDS));
        assertThat(failed).hasCauseInstanceOf(ClusterChangedException.class)
            .hasMessageContaining("a-replaced-cluster").hasMessageContaining("restart the process");
        assertThat(Failures.classifyRead(failed)).isEqualTo(FailureKind.WORKER);
        assertThat(doneMarkers(services, topics)).isZero();
    }

    private static long doneMarkers(TestServices services, TopicNames topics) {
        Map<String, Object> settings = new HashMap<>();
        services.kafkaProperties().forEach((k, v) -> settings.put((String) k, v));
        settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        long done = 0;
        try (KafkaConsumer<byte[], byte[]> consumer =
                 new KafkaConsumer<>(settings, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (int p = 0; p < LAYOUT.partitions(); p++) {
                partitions.add(new TopicPartition(topics.snapshotRows(), p));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            assertThat(end.values().stream().mapToLong(Long::longValue).sum()).as("the rows reached Kafka")
                .isPositive();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (TopicCodec.SNAPSHOT_ROWS.decode(record) instanceof ChunkDone) {
                        done++;
                    }
                }
            }
        }
        return done;
    }
}
