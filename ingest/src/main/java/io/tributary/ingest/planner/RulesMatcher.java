package io.tributary.ingest.planner;

import io.tributary.topics.messages.TableId;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * Which source tables a sync rules document reads, and whether its data queries fit a table's key. The launcher
 * passes its sync rules implementation; the planner does not parse rules itself. Must be thread-safe.
 */
@FunctionalInterface
public interface RulesMatcher {

    /**
     * The tables among {@code qualifiedTables} ({@code schema.table}, exact case) that the rules read.
     *
     * @throws RuntimeException if the rules cannot be parsed (the group is then skipped and logged)
     */
    Set<String> tablesMatching(String rulesYaml, Collection<String> qualifiedTables);

    /**
     * Why the rules' data queries that read {@code table} cannot be replicated from it, one message per offending
     * query naming it, the table, its key and the fix: an output {@code id} that is not the table's single-column
     * primary key (checked against {@code source}'s catalog, a connection the caller owns). Empty if they fit; this
     * default checks nothing.
     */
    default List<String> rowIdProblems(String rulesYaml, Connection source, TableId table) throws SQLException {
        return List.of();
    }
}
