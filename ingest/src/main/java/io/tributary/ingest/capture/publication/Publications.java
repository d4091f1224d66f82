package io.tributary.ingest.capture.publication;

import io.tributary.ingest.capture.CaptureSetupException;
import io.tributary.source.sql.Identifiers;
import io.tributary.topics.messages.TableId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The publication that decides which tables pgoutput sends to ingest. Created if missing with every operation
 * published ({@code insert, update, delete, truncate}) and {@code publish_via_partition_root = true}, so rows of a
 * partitioned table arrive under its root, as the catalog lists it. Tables are only ever added, never removed.
 * Stateless and thread-safe.
 */
public final class Publications {

    private static final Logger LOG = LoggerFactory.getLogger(Publications.class);

    private static final String FIND = """
        SELECT puballtables, pubinsert AND pubupdate AND pubdelete AND pubtruncate
          FROM pg_publication WHERE pubname = ?""";

    private static final String TABLES = """
        SELECT n.nspname, c.relname
          FROM pg_publication p
          JOIN pg_publication_rel r ON r.prpubid = p.oid
          JOIN pg_class c ON c.oid = r.prrelid
          JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE p.pubname = ?""";

    private Publications() {
    }

    /**
     * Creates the publication, without tables, if it does not exist.
     *
     * @throws CaptureSetupException if it exists but does not publish every operation
     */
    public static void ensure(Connection connection, String publication) throws SQLException {
        try (PreparedStatement s = connection.prepareStatement(FIND)) {
            s.setString(1, publication);
            try (ResultSet rs = s.executeQuery()) {
                if (rs.next()) {
                    if (!rs.getBoolean(2)) {
                        throw new CaptureSetupException("Publication \"" + publication + "\" does not publish every"
                            + " operation; ingest needs inserts, updates, deletes and truncates. Fix: ALTER"
                            + " PUBLICATION " + Identifiers.quote(publication)
                            + " SET (publish = 'insert, update, delete, truncate');");
                    }
                    return;
                }
            }
        }
        try (Statement create = connection.createStatement()) {
            create.execute("CREATE PUBLICATION " + Identifiers.quote(publication)
                + " WITH (publish = 'insert, update, delete, truncate', publish_via_partition_root = true)");
            LOG.info("Created publication {}", publication);
        } catch (SQLException e) {
            if (!"42710".equals(e.getSQLState())) {
                throw e;
            }
        }
    }

    /** The tables the publication publishes now. */
    public static PublishedTables tables(Connection connection, String publication) throws SQLException {
        boolean all;
        try (PreparedStatement s = connection.prepareStatement(FIND)) {
            s.setString(1, publication);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw new CaptureSetupException("Publication \"" + publication + "\" does not exist");
                }
                all = rs.getBoolean(1);
            }
        }
        Set<TableId> tables = new HashSet<>();
        try (PreparedStatement s = connection.prepareStatement(TABLES)) {
            s.setString(1, publication);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    tables.add(TableId.of(rs.getString(1), rs.getString(2)));
                }
            }
        }
        return new PublishedTables(all, tables);
    }

    /**
     * Adds {@code tables} to the publication (their owner, or a superuser, must run this). A table another process
     * added meanwhile is not an error.
     */
    public static void add(Connection connection, String publication, Collection<TableId> tables)
        throws SQLException {
        if (tables.isEmpty()) {
            return;
        }
        try (Statement alter = connection.createStatement()) {
            alter.execute(addTables(publication, tables));
            LOG.info("Added {} table(s) to publication {}: {}", tables.size(), publication, tables);
        } catch (SQLException e) {
            if (!"42710".equals(e.getSQLState())) {
                throw e;
            }
            if (tables.size() > 1) {
                for (TableId table : tables) {
                    add(connection, publication, Set.of(table));
                }
            }
        }
    }

    private static String addTables(String publication, Collection<TableId> tables) {
        return "ALTER PUBLICATION " + Identifiers.quote(publication) + " ADD TABLE "
            + tables.stream().map(TableId::quoted).collect(Collectors.joining(", "));
    }
}
