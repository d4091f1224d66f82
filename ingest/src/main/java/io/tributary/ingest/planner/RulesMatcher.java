package io.tributary.ingest.planner;

import java.util.Collection;
import java.util.Set;

/**
 * Which source tables a sync rules document reads. The launcher passes
 * {@code (yaml, tables) -> SyncRules.parse(yaml).tablesMatching(tables)}; the planner does not parse rules itself.
 * Must be thread-safe.
 */
@FunctionalInterface
public interface RulesMatcher {

    /**
     * The tables among {@code qualifiedTables} ({@code schema.table}, exact case) that the rules read.
     *
     * @throws RuntimeException if the rules cannot be parsed (the group is then skipped and logged)
     */
    Set<String> tablesMatching(String rulesYaml, Collection<String> qualifiedTables);
}
