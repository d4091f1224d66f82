package io.tributary.ingest.planner;

import io.tributary.ingest.capture.CaptureSetupException;
import io.tributary.ingest.capture.publication.Publications;
import io.tributary.ingest.capture.publication.PublishedTables;
import io.tributary.source.catalog.SourceCatalog;
import io.tributary.source.catalog.TableDescription;
import io.tributary.topics.messages.TableId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A window may open only once capture will see its marker and the table's changes after it (docs/design.md):
 * <ul>
 *   <li><b>The replication slot is consistent.</b> The marker is the window's low watermark and reaches
 *       {@code changes} only through the slot. Creating a slot waits for every running source transaction to end,
 *       and a marker committed before the slot's consistent point is never decoded: its window would never become
 *       ready and its groups would never get a checkpoint. Once the slot is consistent, every later commit is
 *       captured whenever the engine starts streaming (from the slot's confirmed position or its stored offset), so
 *       the planner need not wait for the engine itself. A slot being created is listed without a confirmed
 *       position until it is consistent; no slot, or such a slot, holds every window back.</li>
 *   <li><b>The publication publishes the table.</b> Every change after the marker must reach {@code changes}, and
 *       pgoutput sends a table's changes only from the publication's addition of the table on. A table created
 *       after start (a new tenant) or first read by newly deployed rules is added by ingest's next table refresh;
 *       planned before that, the changes between the marker and the addition would be lost for good. Such a table
 *       waits for a later round.</li>
 * </ul>
 * A table that cannot be described (no primary key, a column of an unsupported type) is not held back by the
 * publication: ingest never publishes it, and planning records its FAILED window with the reason, as before.
 * Stateless.
 */
final class CaptureGate {

    private static final Logger LOG = LoggerFactory.getLogger(CaptureGate.class);
    private static final String SLOT = """
        SELECT confirmed_flush_lsn IS NOT NULL
          FROM pg_replication_slots
         WHERE slot_name = ? AND slot_type = 'logical' AND database = current_database()""";

    private CaptureGate() {
    }

    /**
     * The tables of {@code tables} that must wait: all of them while {@code config}'s slot is not consistent, else
     * the describable ones its publication does not publish (yet). Nothing waits for what {@code config} does not
     * name.
     */
    static Set<TableId> waiting(Connection source, PlannerConfig config, Collection<TableId> tables)
        throws SQLException {
        if (tables.isEmpty()) {
            return Set.of();
        }
        if (config.slot().isPresent() && !slotConsistent(source, config.slot().get())) {
            LOG.info("Not planning {} table(s) yet: replication slot {} does not exist or is still being created"
                + " (ingest creates it; creation waits for running source transactions to end)", tables.size(),
                config.slot().get());
            return new LinkedHashSet<>(tables);
        }
        return config.publication().isPresent()
            ? notYetCaptured(source, config.publication().get(), tables) : Set.of();
    }

    /** Whether {@code slot} exists in the connected database and is consistent (has a confirmed position). */
    static boolean slotConsistent(Connection source, String slot) throws SQLException {
        try (PreparedStatement select = source.prepareStatement(SLOT)) {
            select.setString(1, slot);
            try (ResultSet rs = select.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    /**
     * The tables of {@code tables} that must wait: describable, but not (yet) in {@code publication}.
     */
    static Set<TableId> notYetCaptured(Connection source, String publication, Collection<TableId> tables)
        throws SQLException {
        PublishedTables published = published(source, publication);
        List<TableId> unpublished = tables.stream().filter(t -> !published.contains(t)).toList();
        Set<TableId> waiting = new LinkedHashSet<>();
        // a table that cannot be described (a missing one too) does not wait: planning skips or fails it itself
        for (Map.Entry<TableId, TableDescription> described : new SourceCatalog(source).describeAll(unpublished)
            .entrySet()) {
            if (described.getValue().problem().isEmpty()) {
                waiting.add(described.getKey());
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
}
