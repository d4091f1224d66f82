package io.tributary.chaos.check;

import io.tributary.source.catalog.SourceCatalog;
import io.tributary.source.catalog.TableSchema;
import io.tributary.source.encoding.JdbcRowEncoder;
import io.tributary.topics.messages.TableId;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The current rows of source tables in the canonical encoding (the snapshot path's encoder), read in one
 * REPEATABLE READ transaction: per table ({@code schema.table}), canonical key JSON to canonical row JSON.
 */
public final class SourceTables {

    private SourceTables() {
    }

    /** The rows of {@code tables} ({@code schema.table} names). */
    public static Map<String, Map<String, String>> read(Connection source, Collection<String> tables)
        throws SQLException {
        boolean autoCommit = source.getAutoCommit();
        source.setAutoCommit(false);
        source.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        try {
            SourceCatalog catalog = new SourceCatalog(source);
            Map<String, Map<String, String>> result = new LinkedHashMap<>();
            for (String name : tables) {
                String[] parts = name.split("\\.", 2);
                TableSchema schema = catalog.describe(TableId.of(parts[0], parts[1]));
                JdbcRowEncoder encoder = JdbcRowEncoder.forTable(schema);
                Map<String, String> rows = new TreeMap<>();
                try (Statement statement = source.createStatement();
                     ResultSet rs = statement.executeQuery("SELECT " + encoder.selectList() + " FROM "
                         + schema.table().quoted())) {
                    while (rs.next()) {
                        rows.put(encoder.keyJson(rs), encoder.rowJson(rs));
                    }
                }
                result.put(name, rows);
            }
            source.commit();
            return result;
        } catch (SQLException | RuntimeException e) {
            source.rollback();
            throw e;
        } finally {
            source.setAutoCommit(autoCommit);
        }
    }
}
