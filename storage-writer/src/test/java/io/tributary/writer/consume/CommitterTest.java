package io.tributary.writer.consume;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.postgres.LazyConnection;
import io.tributary.postgres.PgEndpoint;
import io.tributary.postgres.Retrier;
import io.tributary.postgres.RetryPolicy;
import io.tributary.postgres.StopSignal;
import io.tributary.writer.apply.BatchApplier;
import io.tributary.writer.apply.PreparedBatch;
import io.tributary.writer.internals.WriterCounters;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** The committer's queue bookkeeping, without running its thread (no storage is touched). */
class CommitterTest {

    private final Committer committer = new Committer(new BatchApplier(1),
        new DeadLetterSink(new MockProducer<>(), "dead-letters", 1), new PeerSeals(1, 2),
        new LazyConnection(new PgEndpoint("jdbc:postgresql://localhost:1/none", "nobody", "")),
        Retrier.of(RetryPolicy.of(Duration.ofMillis(1), Duration.ofMillis(1), Duration.ofMillis(1)), new StopSignal()),
        new WriterCounters(), Duration.ofMillis(20), 100, () -> { });

    @Test
    void committerWithABatchQueuedInAnyPartitionIsNotIdle() {
        PartitionAssignment first = state(0);
        PartitionAssignment second = state(1);
        assertThat(committer.idle()).isTrue();

        committer.submit(first, batch(0));

        assertThat(committer.idle()).isFalse();
        assertThat(first.waitingRecords()).isEqualTo(1);
        assertThat(second.waitingRecords()).isZero();
    }

    @Test
    void waitingRecordsAddUpOverAPartitionsBatches() {
        PartitionAssignment first = state(0);

        committer.submit(first, batch(0));
        committer.submit(first, batch(0));

        assertThat(first.waitingRecords()).isEqualTo(2);
        assertThat(first.heldRecords()).isEqualTo(2);
    }

    private static PartitionAssignment state(int partition) {
        return new PartitionAssignment(new TopicPartition("rows", partition), 1,
            new PartitionClaim(partition, 1, 0, 0, -1), 10);
    }

    private static PreparedBatch batch(int partition) {
        return new PreparedBatch(partition, 0, 1, List.of(), List.of(), Optional.empty(), Optional.empty(),
            List.of(), 1);
    }
}
