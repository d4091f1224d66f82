package io.tributary.ingest.capture.publication;

import io.tributary.ingest.capture.CaptureSetupException;
import io.tributary.ingest.capture.ReplicaIdentityException;
import io.tributary.ingest.capture.TableSelection;
import io.tributary.source.catalog.SourceCatalog;
import io.tributary.source.catalog.SourceSchemaException;
import io.tributary.source.catalog.TableDescription;
import io.tributary.source.catalog.TableSchema;
import io.tributary.topics.messages.TableId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the publication in line with the {@link TableSelection}: each {@link #refresh(Connection)} resolves the
 * selection against the source catalog, checks every table not yet published (it must have a key, supported
 * column types and deletes that carry the key), sets {@code REPLICA IDENTITY FULL} where configured, and adds the
 * good ones to the publication, so a new tenant schema is captured within one refresh interval.
 *
 * <p>{@code REPLICA IDENTITY FULL} (when enabled): set on every leaf of a selected table that has a column
 * Postgres may TOAST ({@code attstorage <> 'p'}), before the table is added, so UPDATEs carry unchanged TOASTed
 * values in the old tuple, which Debezium uses to complete the new row; and on tables whose deletes would not
 * carry their key otherwise. It costs WAL volume (the old row is logged with every update and delete).
 *
 * <p>Tables that cannot be captured are reported in {@link TableRefresh#problems()} (and logged once per new
 * reason), retried at every refresh, and never added. Tables are never removed from the publication. Not
 * thread-safe: one refresh at a time.
 *
 * <p>A refresh first reads the catalog's {@link CatalogVersion}. When it equals the version the previous full
 * refresh started from, that refresh reported no problem, the selection, asked again over the same source tables,
 * chooses the same tables, and that refresh is fewer than {@value #FULL_EVERY} refreshes back, the catalog holds
 * what the previous refresh left (its own changes move the version, so the refresh after them is a full one), and
 * the refresh returns the same captured tables without reading the catalog per table. Otherwise it reconciles
 * everything, as described above. A refresh sees every change to tables, schemas, keys, replica identities and the
 * publication committed before it starts; a change of a column's storage alone, within {@value #FULL_EVERY}
 * refreshes.
 */
public final class CapturedTables {

    private static final Logger LOG = LoggerFactory.getLogger(CapturedTables.class);

    /** Every this many refreshes at least one is a full one (a minute at the default 5 s). */
    static final int FULL_EVERY = 12;

    /**
     * Leaves (the table itself unless partitioned) of the selected tables (1, 2) without FULL identity. Runs at every
     * refresh over every selected table, so it finds each by one probe of {@code pg_class}'s (name, schema) index
     * (the schema's oid a scalar subquery: tenants share table names) and asks only partitioned tables for their
     * partition tree.
     */
    private static final String LEAVES_WITHOUT_FULL = """
        WITH roots AS (
            SELECT c.oid, c.relkind, u.nspname, c.relname
              FROM unnest(?::text[], ?::text[]) AS u(nspname, relname)
              JOIN pg_class c ON c.relname = u.relname
                             AND c.relnamespace = (SELECT n.oid FROM pg_namespace n WHERE n.nspname = u.nspname)),
        leaves AS (
            SELECT r.nspname, r.relname, t.relid AS leaf
              FROM roots r CROSS JOIN LATERAL pg_partition_tree(r.oid) t
             WHERE r.relkind = 'p' AND t.isleaf
            UNION ALL
            SELECT r.nspname, r.relname, r.oid
              FROM roots r
             WHERE r.relkind <> 'p' OR NOT EXISTS (SELECT 1 FROM pg_partition_tree(r.oid) t WHERE t.isleaf))
        SELECT ln.nspname, l.relname, lv.nspname, lv.relname,
               EXISTS (SELECT 1 FROM pg_attribute a
                        WHERE a.attrelid = l.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attstorage <> 'p')
          FROM leaves lv
          JOIN pg_class l ON l.oid = lv.leaf
          JOIN pg_namespace ln ON ln.oid = l.relnamespace
         WHERE l.relreplident <> 'f'""";


    private final String publication;
    private final TableSelection selection;
    private final boolean replicaIdentityFull;
    private final Map<TableId, String> reported = new HashMap<>();
    /** What the last full refresh started from and found; null before the first. */
    private Reconciled reconciled;
    private int skipped;

    private record Reconciled(CatalogVersion version, List<TableId> sourceTables, Set<TableId> wanted,
                              TableRefresh outcome) {
    }

    /**
     * @param publication         the publication to maintain
     * @param selection           which tables to capture
     * @param replicaIdentityFull whether to set {@code REPLICA IDENTITY FULL} (see the class comment)
     */
    public CapturedTables(String publication, TableSelection selection, boolean replicaIdentityFull) {
        this.publication = Objects.requireNonNull(publication, "publication");
        this.selection = Objects.requireNonNull(selection, "selection");
        this.replicaIdentityFull = replicaIdentityFull;
    }

    /** Reconciles the publication with the selection once; see the class comment. */
    public TableRefresh refresh(Connection connection) throws SQLException {
        CatalogVersion version = CatalogVersion.read(connection);
        Reconciled previous = reconciled;
        if (previous != null && skipped < FULL_EVERY - 1 && previous.version().equals(version)
            && previous.outcome().problems().isEmpty()
            && selection.select(previous.sourceTables()).equals(previous.wanted())) {
            skipped++;
            return new TableRefresh(previous.outcome().captured(), Set.of(), Map.of());
        }
        skipped = 0;
        SourceCatalog catalog = new SourceCatalog(connection);
        List<TableId> sourceTables = catalog.listAllUserTables();
        Set<TableId> wanted = new TreeSet<>(selection.select(sourceTables));
        PublishedTables published = Publications.tables(connection, publication);
        Map<TableId, RuntimeException> problems = new HashMap<>();
        Set<TableId> candidates = new LinkedHashSet<>();
        Set<TableId> needFull = new TreeSet<>();
        Map<TableId, TableDescription> described = catalog.describeAll(wanted.stream()
            .filter(table -> !published.contains(table)).toList());
        for (TableId table : wanted) {
            if (published.contains(table)) {
                continue;
            }
            try {
                TableSchema schema = described.get(table).schema();
                if (!schema.deletesCarryKey()) {
                    if (!replicaIdentityFull) {
                        throw new ReplicaIdentityException(table, "its replica identity is "
                            + schema.replicaIdentity() + ", so deletes do not carry the key "
                            + schema.keyColumns());
                    }
                    needFull.add(table);
                }
                candidates.add(table);
            } catch (SourceSchemaException | CaptureSetupException e) {
                problems.put(table, e);
            }
        }
        if (replicaIdentityFull) {
            Set<TableId> eligible = new TreeSet<>(wanted);
            eligible.removeAll(problems.keySet());
            setFullIdentity(connection, eligible, needFull, problems);
        }
        candidates.removeAll(problems.keySet());
        Set<TableId> added = addToPublication(connection, candidates, problems);
        Set<TableId> captured = new TreeSet<>();
        for (TableId table : wanted) {
            if (published.contains(table) || added.contains(table)) {
                captured.add(table);
            }
        }
        report(problems);
        TableRefresh outcome = new TableRefresh(captured, added, problems);
        reconciled = new Reconciled(version, List.copyOf(sourceTables), Set.copyOf(wanted), outcome);
        return outcome;
    }

    private void setFullIdentity(Connection connection, Set<TableId> wanted, Set<TableId> anyColumns,
                                 Map<TableId, RuntimeException> problems) throws SQLException {
        if (wanted.isEmpty()) {
            return;
        }
        List<String[]> leaves = new ArrayList<>();
        try (PreparedStatement s = connection.prepareStatement(LEAVES_WITHOUT_FULL)) {
            s.setArray(1, connection.createArrayOf("text", wanted.stream().map(TableId::schema).toArray()));
            s.setArray(2, connection.createArrayOf("text", wanted.stream().map(TableId::name).toArray()));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    TableId root = TableId.of(rs.getString(3), rs.getString(4));
                    if (rs.getBoolean(5) || anyColumns.contains(root)) {
                        leaves.add(new String[] {rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4)});
                    }
                }
            }
        }
        for (String[] leaf : leaves) {
            TableId table = TableId.of(leaf[0], leaf[1]);
            TableId root = TableId.of(leaf[2], leaf[3]);
            try (Statement alter = connection.createStatement()) {
                alter.execute("ALTER TABLE " + table.quoted() + " REPLICA IDENTITY FULL");
                LOG.info("Set REPLICA IDENTITY FULL on {} (captured as {})", table, root);
            } catch (SQLException e) {
                if (!"42501".equals(e.getSQLState())) {
                    throw e;
                }
                problems.put(root, new ReplicaIdentityException(root, "ingest may not set REPLICA IDENTITY FULL on "
                    + table.quoted() + " (" + e.getMessage() + ")", e));
            }
        }
    }

    private Set<TableId> addToPublication(Connection connection, Set<TableId> tables,
                                          Map<TableId, RuntimeException> problems) throws SQLException {
        try {
            Publications.add(connection, publication, tables);
            return tables;
        } catch (SQLException e) {
            if (!"42501".equals(e.getSQLState())) {
                throw e;
            }
        }
        Set<TableId> added = new LinkedHashSet<>();
        for (TableId table : tables) {
            try {
                Publications.add(connection, publication, Set.of(table));
                added.add(table);
            } catch (SQLException e) {
                if (!"42501".equals(e.getSQLState())) {
                    throw e;
                }
                problems.put(table, new CaptureSetupException("Cannot add source table " + table.quoted()
                    + " to publication \"" + publication + "\": " + e.getMessage() + ". Fix: make the ingest user"
                    + " the table's owner (ALTER TABLE " + table.quoted() + " OWNER TO <ingest user>;) or add it"
                    + " yourself: ALTER PUBLICATION \"" + publication + "\" ADD TABLE " + table.quoted() + ";", e));
            }
        }
        return added;
    }

    private void report(Map<TableId, RuntimeException> problems) {
        reported.keySet().retainAll(problems.keySet());
        for (Map.Entry<TableId, RuntimeException> problem : problems.entrySet()) {
            String message = problem.getValue().getMessage();
            if (!message.equals(reported.put(problem.getKey(), message))) {
                LOG.error("Not capturing {}: {}", problem.getKey(), message);
            }
        }
    }
}
