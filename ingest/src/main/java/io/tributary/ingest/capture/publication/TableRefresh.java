package io.tributary.ingest.capture.publication;

import io.tributary.topics.messages.TableId;
import java.util.Map;
import java.util.Set;

/**
 * The outcome of one reconciliation of the publication with the selection.
 *
 * @param captured the selected tables the publication publishes now
 * @param added    the tables this reconciliation added
 * @param problems selected tables that cannot be captured, with the reason (typed, naming the fix)
 */
public record TableRefresh(Set<TableId> captured, Set<TableId> added, Map<TableId, RuntimeException> problems) {

    public TableRefresh {
        captured = Set.copyOf(captured);
        added = Set.copyOf(added);
        problems = Map.copyOf(problems);
    }
}
