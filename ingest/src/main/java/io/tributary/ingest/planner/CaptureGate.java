package io.tributary.ingest.planner;

import io.tributary.source.catalog.SourceCatalog;
import io.tributary.source.catalog.SourceSchemaException;
import io.tributary.topics.messages.TableId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A window may open only for a table the capture's publication already publishes. Its marker is the window's low
 * watermark: every change after it must reach {@code changes}, and pgoutput sends a table's changes only from the
 * publication's addition of the table on. A table created after start (a new tenant) or first read by newly
 * deployed rules is added by ingest's next table refresh; planned before that, the changes between the marker and
 * the addition would be lost for good. Such a table waits for a later round.
 *
 * <p>A table that cannot be described (no primary key, a column of an unsupported type) is not held back: ingest
 * never publishes it, and planning records its FAILED window with the reason, as before. Stateless.
 */
final class CaptureGate {

    private static final Logger LOG = LoggerFactory.getLogger(CaptureGate.class);
    private static final String PUBLISHED = "SELECT schemaname, tablename FROM pg_catalog.pg_publication_tables"
        + " WHERE pubname = ?";

    private CaptureGate() {
    }

    /**
     * The tables of {@code tables} that must wait: describable, but not (yet) in {@code publication}.
     */
    static Set<TableId> notYetCaptured(Connection source, String publication, Collection<TableId> tables)
        throws SQLException {
        Set<TableId> published = published(source, publication);
        SourceCatalog catalog = new SourceCatalog(source);
        Set<TableId> waiting = new LinkedHashSet<>();
        for (TableId table : tables) {
            if (!published.contains(table) && describable(catalog, table)) {
                waiting.add(table);
            }
        }
        if (!waiting.isEmpty()) {
            LOG.warn("Not planning {} table(s) yet: not in publication {} (ingest adds a table at its next refresh;"
                + " if this persists, ingest's log says why it cannot capture them): {}", waiting.size(),
                publication, waiting.stream().map(TableId::quoted).limit(20).toList());
        }
        return waiting;
    }

    private static Set<TableId> published(Connection source, String publication) throws SQLException {
        Set<TableId> published = new HashSet<>();
        try (PreparedStatement select = source.prepareStatement(PUBLISHED)) {
            select.setString(1, publication);
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    published.add(TableId.of(rs.getString(1), rs.getString(2)));
                }
            }
        }
        return published;
    }

    private static boolean describable(SourceCatalog catalog, TableId table) throws SQLException {
        try {
            catalog.describe(table);
            return true;
        } catch (SourceSchemaException e) { // a missing table too: planning skips or fails it itself
            return false;
        }
    }
}
