package io.tributary.snapshot.queue;

import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/** Whether the workers' consumer group has tasks queued or in progress (uncommitted) in some partitions. */
@FunctionalInterface
interface TaskLag {

    /**
     * Whether, in any of {@code partitions}, the group's committed offset (or the log start, before the first
     * commit) is below the end offset. When it cannot tell (the cluster does not answer), it says true.
     */
    boolean hasLag(Set<TopicPartition> partitions);
}
