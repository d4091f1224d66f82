package io.tributary.launcher.lifecycle;

import io.tributary.ingest.planner.RulesMatcher;
import io.tributary.syncrules.SyncRules;
import io.tributary.topics.messages.TableId;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The snapshot planner's view of sync rules: the tables they read and {@link RowIdKeys}' check. Thread-safe. */
public final class SyncRulesMatcher implements RulesMatcher {

    @Override
    public Set<String> tablesMatching(String rulesYaml, Collection<String> qualifiedTables) {
        return SyncRules.parse(rulesYaml).tablesMatching(qualifiedTables);
    }

    @Override
    public Map<TableId, List<String>> rowIdProblems(String rulesYaml, Connection source, Collection<TableId> tables)
        throws SQLException {
        return RowIdKeys.problems(source, SyncRules.parse(rulesYaml), tables);
    }
}
