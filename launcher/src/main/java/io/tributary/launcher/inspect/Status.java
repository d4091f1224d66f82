package io.tributary.launcher.inspect;

import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.progress.SnapshotProgress;
import io.tributary.storage.progress.WindowProgress;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;

/**
 * What {@code tributary status} reports: sync rules groups with their checkpoints, each table's newest snapshot
 * window, and the consumer groups doing the work (members and lag), read from storage and Kafka.
 *
 * @param groups   every sync rules group, oldest first
 * @param tables   every table's newest snapshot window
 * @param workers  the consumer groups of this deployment; empty when Kafka was not asked
 * @param kafkaProblem why the consumer groups could not be read, if they could not
 */
public record Status(List<SyncRulesGroup> groups, List<WindowProgress> tables, List<ConsumerGroupStatus> workers,
                     Optional<String> kafkaProblem) {

    /**
     * Reads the status.
     *
     * @param admin Kafka, if configured
     * @param snapshotGroup the snapshot workers' consumer group
     * @param streamGroup the stream workers' consumer group (Kafka Streams application id)
     * @param writerGroup the storage writers' consumer group of a sync rules group
     */
    public static Status read(Connection storage, Optional<Admin> admin, String snapshotGroup, String streamGroup,
                              Function<SyncRulesGroup, String> writerGroup) throws SQLException {
        List<SyncRulesGroup> groups = SyncRulesGroups.list(storage);
        List<WindowProgress> tables = SnapshotProgress.latestWindows(storage);
        if (admin.isEmpty()) {
            return new Status(groups, tables, List.of(), Optional.of("no Kafka configured (kafka.bootstrap_servers)"));
        }
        List<String> consumerGroups = new ArrayList<>(List.of(snapshotGroup, streamGroup));
        groups.stream().filter(group -> group.state().isLive()).map(writerGroup).forEach(consumerGroups::add);
        try {
            return new Status(groups, tables, ConsumerGroupStatus.read(admin.get(), consumerGroups),
                Optional.empty());
        } catch (IllegalStateException e) {
            return new Status(groups, tables, List.of(), Optional.of(e.getMessage()));
        }
    }
}
