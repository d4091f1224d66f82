package io.tributary.ingest.planner;

import io.tributary.source.catalog.SourceCatalog;
import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TaskPriority;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The source tables live sync rules groups read, each with the priority of its snapshot: {@code ACTIVE_SNAPSHOT}
 * when an ACTIVE group reads it (its checkpoints wait for the table) or while no group is ACTIVE yet (the first
 * deployment: every client waits for it), else {@code REPROCESS_SNAPSHOT} (only PROCESSING groups read it while
 * another group serves clients). A group whose rules cannot be matched is skipped with an error in the log.
 * Stateless and thread-safe.
 */
final class TableDemand {

    private static final Logger LOG = LoggerFactory.getLogger(TableDemand.class);

    private TableDemand() {
    }

    /** The tables needed now, in catalog order. */
    static Map<TableId, TaskPriority> neededTables(Connection storage, Connection source, RulesMatcher rules)
        throws SQLException {
        List<SyncRulesGroup> live = SyncRulesGroups.list(storage).stream().filter(g -> g.state().isLive()).toList();
        Map<TableId, TaskPriority> needed = new LinkedHashMap<>();
        if (live.isEmpty()) {
            return needed;
        }
        Map<String, TableId> byName = new LinkedHashMap<>();
        for (TableId table : new SourceCatalog(source).listAllUserTables()) {
            byName.put(table.schema() + "." + table.name(), table);
        }
        boolean anyActive = live.stream().anyMatch(g -> g.state() == GroupState.ACTIVE);
        for (SyncRulesGroup group : live) {
            // With no ACTIVE group, clients are waiting for the first one: its snapshot is the active one.
            TaskPriority priority = group.state() == GroupState.ACTIVE || !anyActive
                ? TaskPriority.ACTIVE_SNAPSHOT : TaskPriority.REPROCESS_SNAPSHOT;
            try {
                for (String name : rules.tablesMatching(group.content(), byName.keySet())) {
                    TableId table = byName.get(name);
                    if (table != null) {
                        needed.merge(table, priority, (a, b) -> a.isHigherThan(b) ? a : b);
                    }
                }
            } catch (RuntimeException e) {
                LOG.error("Cannot tell which tables sync rules group {} reads; its tables are not planned: {}",
                    group.id(), e.getMessage());
            }
        }
        return needed;
    }
}
