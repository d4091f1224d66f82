package io.tributary.writer.consume;

import io.tributary.writer.apply.ApplyTarget;
import io.tributary.writer.apply.BatchBuilder;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * One assignment of one partition to one writer loop, from its claim until it is revoked, lost or fenced. A
 * reassignment creates a new state, so batches of an old assignment are recognized and dropped.
 *
 * <p>Ownership: the staging area and the builder belong to the poll thread; {@code sealedEpoch} and
 * {@code maxOpId} to the committer (published to it by the queue lock); the flags, the committed offset and the
 * waiting records are shared.
 */
final class PartitionAssignment {

    private final TopicPartition topicPartition;
    private final PartitionClaim claim;
    private final long groupId;

    final BatchBuilder builder;
    final ArrayDeque<ConsumerRecord<byte[], byte[]>> staged = new ArrayDeque<>();
    long nextToRead;
    boolean paused;
    long kafkaCommitted;

    long sealedEpoch;
    long maxOpId;

    private volatile boolean active = true;
    private volatile boolean fenced;
    private volatile long committedOffset;
    private final AtomicInteger waiting = new AtomicInteger();

    PartitionAssignment(TopicPartition topicPartition, long groupId, PartitionClaim claim, int batchRecords) {
        this.topicPartition = topicPartition;
        this.groupId = groupId;
        this.claim = claim;
        this.builder = new BatchBuilder(topicPartition.partition(), batchRecords);
        this.nextToRead = claim.nextOffset();
        this.kafkaCommitted = claim.nextOffset();
        this.committedOffset = claim.nextOffset();
        this.sealedEpoch = claim.sealedEpoch();
        this.maxOpId = claim.maxOpId();
    }

    TopicPartition topicPartition() {
        return topicPartition;
    }

    int partition() {
        return topicPartition.partition();
    }

    /** Where the committer applies this partition's next batch (committer thread only). */
    ApplyTarget target() {
        return new ApplyTarget(groupId, partition(), claim.fencingToken(), sealedEpoch);
    }

    /** Whether this assignment still holds: not revoked, lost or fenced. */
    boolean isLive() {
        return active && !fenced;
    }

    /** The assignment ended (revoked or lost). */
    void deactivate() {
        active = false;
    }

    boolean isFenced() {
        return fenced;
    }

    /** Another writer claimed the partition. */
    void fence() {
        fenced = true;
    }

    /** The stored next offset after the newest commit of this assignment. */
    long committedOffset() {
        return committedOffset;
    }

    void committed(long nextOffset) {
        committedOffset = nextOffset;
    }

    /** The records of this assignment's batches submitted to the committer and not yet taken by a transaction. */
    int waitingRecords() {
        return waiting.get();
    }

    /** {@code records} more (or, if negative, fewer) records wait for the committer. */
    void addWaiting(int records) {
        waiting.addAndGet(records);
    }

    /** The records the poll thread holds for this assignment: evaluated into its builder, or waiting. */
    int heldRecords() {
        return builder.records() + waiting.get();
    }

    @Override
    public String toString() {
        return topicPartition + " (token " + claim.fencingToken() + ")";
    }
}
