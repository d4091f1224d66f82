package io.tributary.storage.schema;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings the storage database to the schema this build knows, at start, before anything reads or writes it.
 *
 * <p>Every step runs in its own transaction together with its row in {@code tributary.schema_version}, under a
 * transaction-scoped advisory lock, so any number of processes may start at once: one applies a step, the
 * others wait and then see it applied. A database whose schema is newer than this build fails the start with
 * a message saying so (run the newer release, never the older one, against it).
 */
public final class Migrations {

    /** The schema of this build, in order. Append only. */
    public static final List<Migration> ALL = List.of(
        new Migration(1, "groups"),
        new Migration(2, "snapshot_progress"),
        new Migration(3, "bucket_storage"),
        new Migration(4, "planning_state"),
        new Migration(8, "replay_targets"),
        new Migration(9, "write_checkpoints"),
        new Migration(10, "kafka_logs"),
        new Migration(11, "compacted_ops"),
        new Migration(12, "load_phase"),
        new Migration(13, "bucket_parameters"),
        new Migration(14, "table_rows"),
        new Migration(20, "row_id_conflicts"),
        new Migration(25, "compaction_state"),
        new Migration(55, "compaction_cursor"),
        new Migration(70, "compaction_scan"),
        new Migration(71, "op_id_blocks"));

    private static final Logger LOG = LoggerFactory.getLogger(Migrations.class);
    private static final long LOCK_KEY = 0x7472_6962_7574_6172L; // "tributar"

    private Migrations() {
    }

    /**
     * Applies every step the database lacks.
     *
     * @return the schema version the database is at afterwards
     * @throws SchemaVersionException if the database is newer than this build
     */
    public static int migrate(Connection connection) throws SQLException {
        int applied = 0;
        for (Migration migration : ALL) {
            if (applyIfMissing(connection, migration)) {
                applied++;
            }
        }
        int version = ALL.get(ALL.size() - 1).version();
        if (applied > 0) {
            LOG.info("Storage schema migrated to version {} ({} steps applied)", version, applied);
        }
        return version;
    }

    private static boolean applyIfMissing(Connection connection, Migration migration) throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
            statement.execute("SELECT pg_advisory_xact_lock(" + LOCK_KEY + ")");
            statement.execute("CREATE SCHEMA IF NOT EXISTS tributary");
            statement.execute("CREATE TABLE IF NOT EXISTS tributary.schema_version ("
                + "version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())");
            int current = currentVersion(connection);
            if (current > ALL.get(ALL.size() - 1).version()) {
                throw new SchemaVersionException("Storage schema is at version " + current + " but this build knows "
                    + "versions up to " + ALL.get(ALL.size() - 1).version() + ": run a Tributary release that "
                    + "knows version " + current + " (never an older one) against this storage database");
            }
            if (current >= migration.version()) {
                connection.rollback();
                return false;
            }
            statement.execute(migration.sql());
            try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO tributary.schema_version (version, name) VALUES (?, ?)")) {
                insert.setInt(1, migration.version());
                insert.setString(2, migration.name());
                insert.executeUpdate();
            }
            connection.commit();
            return true;
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(autoCommit);
        }
    }

    private static int currentVersion(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery("SELECT coalesce(max(version), 0) FROM tributary.schema_version")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
