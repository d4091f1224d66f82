package io.tributary.ingest.planner;

import io.tributary.topics.messages.TableId;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
     * For each table of {@code tables} that the rules read, why their data queries cannot be replicated from it: one
     * message per offending query naming it, the table, its key and the fix, for an output {@code id} that is not
     * the table's single-column primary key (checked against {@code source}'s catalog, a connection the caller owns,
     * for all the tables at once). A table the rules read and fit maps to an empty list; one they do not read is
     * absent. This default checks no key.
     *
     * @throws RuntimeException if the rules cannot be parsed
     */
    default Map<TableId, List<String>> rowIdProblems(String rulesYaml, Connection source, Collection<TableId> tables)
        throws SQLException {
        Set<String> read = tablesMatching(rulesYaml, tables.stream().map(t -> t.schema() + "." + t.name()).toList());
        Map<TableId, List<String>> fit = new LinkedHashMap<>();
        tables.stream().filter(t -> read.contains(t.schema() + "." + t.name())).forEach(t -> fit.put(t, List.of()));
        return fit;
    }
}
