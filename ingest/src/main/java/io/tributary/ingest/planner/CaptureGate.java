package io.tributary.ingest.planner;

import io.tributary.ingest.capture.CaptureSetupException;
import io.tributary.ingest.capture.publication.Publications;
import io.tributary.ingest.capture.publication.PublishedTables;
import io.tributary.source.catalog.SourceCatalog;
import io.tributary.source.catalog.SourceSchemaException;
import io.tributary.topics.messages.TableId;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
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

    private CaptureGate() {
    }

    /**
     * The tables of {@code tables} that must wait: describable, but not (yet) in {@code publication}.
     */
    static Set<TableId> notYetCaptured(Connection source, String publication, Collection<TableId> tables)
        throws SQLException {
        PublishedTables published = published(source, publication);
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

    /** What {@code publication} publishes now; nothing while ingest has not created it yet. */
    private static PublishedTables published(Connection source, String publication) throws SQLException {
        try {
            return Publications.tables(source, publication);
        } catch (CaptureSetupException e) {
            return new PublishedTables(false, Set.of());
        }
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
