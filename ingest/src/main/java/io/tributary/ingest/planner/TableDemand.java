package io.tributary.ingest.planner;

import io.tributary.source.catalog.SourceCatalog;
import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TaskPriority;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What live sync rules groups need, as read at the start of a planning round: the source tables they read, each
 * with the priority of its snapshot, and the groups those tables are all of. A table is {@code ACTIVE_SNAPSHOT}
 * when an ACTIVE group reads it (its checkpoints wait for the table) or while no group is ACTIVE yet (the first
 * deployment: every client waits for it), else {@code REPROCESS_SNAPSHOT} (only PROCESSING groups read it while
 * another group serves clients). A group whose rules cannot be matched is skipped with an error in the log and is
 * not in {@link #groups()}: its tables are unknown, so it can never be marked planned.
 *
 * @param tables the tables needed, in catalog order, with their priority
 * @param groups the live groups every one of whose matched tables is in {@code tables}
 */
record TableDemand(Map<TableId, TaskPriority> tables, Set<Long> groups) {

    private static final Logger LOG = LoggerFactory.getLogger(TableDemand.class);

    TableDemand {
        tables = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(tables, "tables")));
        groups = Collections.unmodifiableSet(new LinkedHashSet<>(Objects.requireNonNull(groups, "groups")));
    }

    /** What the live groups in {@code storage} need of the tables in {@code source} now. */
    static TableDemand read(Connection storage, Connection source, RulesMatcher rules) throws SQLException {
        List<SyncRulesGroup> live = SyncRulesGroups.list(storage).stream().filter(g -> g.state().isLive()).toList();
        Map<TableId, TaskPriority> needed = new LinkedHashMap<>();
        Set<Long> groups = new LinkedHashSet<>();
        if (live.isEmpty()) {
            return new TableDemand(needed, groups);
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
                groups.add(group.id());
            } catch (RuntimeException e) {
                LOG.error("Cannot tell which tables sync rules group {} reads; its tables are not planned: {}",
                    group.id(), e.getMessage());
            }
        }
        return new TableDemand(needed, groups);
    }
}
