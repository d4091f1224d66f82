package io.tributary.stream.simulation;

import io.tributary.testing.PostgresDatabase;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.RowKey;
import io.tributary.topics.messages.TableId;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

/**
 * The source table of the simulation, {@code public.items (id int primary key, v text, n int)}, and the one
 * canonical encoding of its rows and keys that both the stream and the chunk reads use (so equal rows are equal
 * bytes on both paths).
 */
public final class ItemsTable {

    /** The table. */
    public static final TableId ID = TableId.of("public", "items");

    private ItemsTable() {
    }

    /** Creates the table with {@code rows} rows {@code 1..rows}. */
    public static void create(PostgresDatabase db, int rows) throws SQLException {
        db.execute("CREATE TABLE items (id int PRIMARY KEY, v text NOT NULL, n int NOT NULL)",
            "INSERT INTO items SELECT g, 'v' || g, 0 FROM generate_series(1, " + rows + ") g");
    }

    /** The key of row {@code id}. */
    public static KeyValues pk(long id) {
        return KeyValues.of("[" + id + "]");
    }

    /** The canonical JSON of a row. */
    public static RowJson row(long id, String v, long n) {
        return RowJson.of("{\"id\":" + id + ",\"v\":\"" + v + "\",\"n\":" + n + "}");
    }

    /** The table's current content, as the merge should have it in {@code rows}. */
    public static Map<RowKey, RowJson> content(PostgresDatabase db) throws SQLException {
        Map<RowKey, RowJson> content = new HashMap<>();
        try (Connection c = db.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id, v, n FROM items")) {
            while (rs.next()) {
                content.put(RowKey.of(ID, pk(rs.getLong(1))), row(rs.getLong(1), rs.getString(2), rs.getLong(3)));
            }
        }
        return content;
    }
}
