package io.tributary.topics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.topics.messages.TaskPriority;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TopicLayoutTest {

    private final TopicLayout layout = TopicLayout.of(6, 2, (short) 1);

    @Test
    void coPartitionedTopicsShareThePartitionCount() {
        assertThat(layout.partitionsOf(TopicRole.CHANGES)).isEqualTo(6);
        assertThat(layout.partitionsOf(TopicRole.SNAPSHOT_ROWS)).isEqualTo(6);
        assertThat(layout.partitionsOf(TopicRole.ROWS)).isEqualTo(6);
    }

    @Test
    void eachTaskPriorityOwnsAPartitionRange() {
        assertThat(layout.partitionsFor(TaskPriority.ACTIVE_SNAPSHOT)).isEqualTo(PartitionRange.of(0, 2));
        assertThat(layout.partitionsFor(TaskPriority.REPROCESS_SNAPSHOT)).isEqualTo(PartitionRange.of(2, 4));
        assertThat(layout.partitionsOf(TopicRole.SNAPSHOT_TASKS)).isEqualTo(4);
    }

    @Test
    void priorityOfATaskPartitionInvertsTheRanges() {
        assertThat(layout.priorityOf(1)).isEqualTo(TaskPriority.ACTIVE_SNAPSHOT);
        assertThat(layout.priorityOf(2)).isEqualTo(TaskPriority.REPROCESS_SNAPSHOT);
        assertThatThrownBy(() -> layout.priorityOf(4)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void ingestOffsetsHasOneCompactedPartition() {
        TopicSpec spec = layout.spec(TopicNames.defaults(), TopicRole.INGEST_OFFSETS);
        assertThat(spec.partitions()).isEqualTo(1);
        assertThat(spec.configs()).containsEntry("cleanup.policy", "compact");
    }

    @Test
    void rowsIsCompactedWithLagAndTombstoneRetention() {
        Map<String, String> configs = layout.withRowsMinCompactionLag(Duration.ofMinutes(5))
            .withRowsTombstoneRetention(Duration.ofDays(30)).configsOf(TopicRole.ROWS);
        assertThat(configs).containsEntry("cleanup.policy", "compact")
            .containsEntry("min.compaction.lag.ms", "300000")
            .containsEntry("delete.retention.ms", Long.toString(Duration.ofDays(30).toMillis()))
            .doesNotContainKey("retention.ms");
    }

    @Test
    void otherTopicsAreDeletedAfterTheRetention() {
        TopicLayout hourly = layout.withRetention(Duration.ofHours(1));
        for (TopicRole role : new TopicRole[] {TopicRole.CHANGES, TopicRole.SNAPSHOT_TASKS, TopicRole.SNAPSHOT_ROWS,
            TopicRole.DEAD_LETTERS}) {
            assertThat(hourly.configsOf(role)).as(role.name())
                .containsEntry("cleanup.policy", "delete").containsEntry("retention.ms", "3600000");
        }
    }

    @Test
    void specsCoverEveryRoleWithItsName() {
        assertThat(layout.specs(TopicNames.withPrefix("x.")))
            .extracting(TopicSpec::name)
            .containsExactly("x.changes", "x.snapshot-tasks", "x.snapshot-rows", "x.rows", "x.dead-letters",
                "x.ingest-offsets");
    }

    @Test
    void rejectsNonPositiveCounts() {
        assertThatThrownBy(() -> TopicLayout.of(0, 1, (short) 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TopicLayout.of(1, 0, (short) 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TopicLayout.of(1, 1, (short) 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> layout.withRetention(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    }
}
