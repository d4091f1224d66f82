package io.tributary.ingest.planner;

import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.progress.RowIdConflicts;
import io.tributary.topics.messages.TableId;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The deploy's primary-key check of data query ids ({@link RulesMatcher#rowIdProblems}), for tables about to get a
 * snapshot window: a table created, or first matched by a wildcard, after the rules were deployed was never
 * checked. For each live group whose rules read such a table, a problem is recorded as the group's conflict
 * ({@link RowIdConflicts}: the group's checkpoints are held) and logged as an error naming the group, the query by
 * line and column, the table, its key and the fix; a group whose rules fit now has its conflict with the table
 * cleared. The window itself opens either way: other groups may read the table correctly.
 *
 * <p>Stateless; runs in the planner's round, on its connections.
 */
final class RowIdCheck {

    private static final Logger LOG = LoggerFactory.getLogger(RowIdCheck.class);

    private RowIdCheck() {
    }

    /**
     * Checks {@code tables} against the rules of every live group that reads them.
     *
     * @return the problems found, in words, by table (tables that fit every group are absent)
     */
    static Map<TableId, List<String>> beforeWindows(Connection storage, Connection source, RulesMatcher rules,
                                                    Collection<TableId> tables) throws SQLException {
        Map<TableId, List<String>> found = new LinkedHashMap<>();
        if (tables.isEmpty()) {
            return found;
        }
        List<SyncRulesGroup> live = SyncRulesGroups.list(storage).stream().filter(g -> g.state().isLive()).toList();
        for (TableId table : tables) {
            for (SyncRulesGroup group : live) {
                List<String> problems;
                try {
                    if (rules.tablesMatching(group.content(), List.of(table.schema() + "." + table.name()))
                        .isEmpty()) {
                        continue;
                    }
                    problems = rules.rowIdProblems(group.content(), source, table);
                } catch (RuntimeException e) {
                    continue;  // rules that do not parse: TableDemand logs them
                }
                if (problems.isEmpty()) {
                    if (RowIdConflicts.clear(storage, group.id(), table.schema(), table.name())) {
                        LOG.info("Sync rules group {} fits {} now: its checkpoints are no longer held for it",
                            group.id(), table.quoted());
                    }
                    continue;
                }
                String problem = describe(group, table, problems);
                RowIdConflicts.record(storage, group.id(), table.schema(), table.name(), problem);
                LOG.error(problem);
                found.computeIfAbsent(table, t -> new ArrayList<>()).add(problem);
            }
        }
        return found;
    }

    private static String describe(SyncRulesGroup group, TableId table, List<String> problems) {
        StringBuilder text = new StringBuilder("Sync rules group " + group.id() + " reads " + table.quoted()
            + ", created or matched after its rules were deployed, with an id that is not its primary key:");
        for (String problem : problems) {
            text.append(' ').append(problem).append('.');
        }
        return text.append(" The group keeps serving its last checkpoint and publishes no newer one until either"
            + " the table is fixed and snapshotted again (`tributary resnapshot --config FILE ").append(table.schema())
            .append(' ').append(table.name()).append("`) or rules that fit it are deployed").toString();
    }
}
