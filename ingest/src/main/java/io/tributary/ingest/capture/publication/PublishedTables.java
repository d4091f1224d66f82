package io.tributary.ingest.capture.publication;

import io.tributary.topics.messages.TableId;
import java.util.Set;

/**
 * The tables a publication publishes.
 *
 * @param allTables whether it is {@code FOR ALL TABLES}
 * @param tables    the tables added to it explicitly (empty for {@code FOR ALL TABLES})
 */
public record PublishedTables(boolean allTables, Set<TableId> tables) {

    public PublishedTables {
        tables = Set.copyOf(tables);
    }

    /** Whether changes of {@code table} are published. */
    public boolean contains(TableId table) {
        return allTables || tables.contains(table);
    }
}
