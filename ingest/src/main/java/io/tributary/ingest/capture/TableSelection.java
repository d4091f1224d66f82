package io.tributary.ingest.capture;

import io.tributary.topics.messages.TableId;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Decides which source tables ingest captures, given every user table of the source database. Ingest asks again
 * every {@link IngestConfig#tableRefreshInterval()}, so tables that appear later (a new tenant schema) are added to
 * the publication. Implementations must be thread-safe; a selection may only grow in practice (ingest never removes
 * a table from the publication).
 */
@FunctionalInterface
public interface TableSelection {

    /**
     * The tables to capture among {@code sourceTables}.
     *
     * @param sourceTables every user table of the source database, ordered by schema and name
     * @return a subset of {@code sourceTables}
     * @throws SQLException if the selection reads a database that failed
     */
    Set<TableId> select(List<TableId> sourceTables) throws SQLException;

    /** Exactly {@code tables} (those of them that exist). */
    static TableSelection of(Set<TableId> tables) {
        Set<TableId> wanted = Set.copyOf(Objects.requireNonNull(tables, "tables"));
        return sourceTables -> {
            Set<TableId> selected = new TreeSet<>();
            for (TableId table : sourceTables) {
                if (wanted.contains(table)) {
                    selected.add(table);
                }
            }
            return selected;
        };
    }
}
