package io.tributary.snapshot.queue;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link TaskLag} from the cluster through an {@link Admin}: end offsets ({@code ListOffsets}) against the
 * group's committed offsets ({@code OffsetFetch}), for any partitions, assigned to this member or not.
 * Thread-safe (the admin client is).
 */
final class AdminTaskLag implements TaskLag {

    private static final Logger LOG = LoggerFactory.getLogger(AdminTaskLag.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final Admin admin;
    private final String group;

    AdminTaskLag(Admin admin, String group) {
        this.admin = admin;
        this.group = group;
    }

    @Override
    public boolean hasLag(Set<TopicPartition> partitions) {
        try {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            Map<TopicPartition, Long> ends = offsets(partitions, OffsetSpec.latest());
            Map<TopicPartition, Long> starts = null;
            for (TopicPartition partition : partitions) {
                OffsetAndMetadata offset = committed.get(partition);
                long done;
                if (offset != null) {
                    done = offset.offset();
                } else {
                    if (starts == null) {
                        starts = offsets(partitions, OffsetSpec.earliest());
                    }
                    done = starts.getOrDefault(partition, 0L);
                }
                if (ends.getOrDefault(partition, 0L) > done) {
                    return true;
                }
            }
            return false;
        } catch (ExecutionException | TimeoutException e) {
            LOG.debug("Cannot read the lag of {} in {}: {}; assuming lag", group, partitions, e.toString());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    private Map<TopicPartition, Long> offsets(Set<TopicPartition> partitions, OffsetSpec spec)
        throws ExecutionException, InterruptedException, TimeoutException {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        partitions.forEach(p -> request.put(p, spec));
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> result = admin.listOffsets(request).all()
            .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        Map<TopicPartition, Long> offsets = new HashMap<>();
        result.forEach((p, info) -> offsets.put(p, info.offset()));
        return offsets;
    }
}
