package io.tributary.chaos.workload;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;

/**
 * The single-statement writes of the workload, table by table, each inside the caller's transaction. Keys are
 * drawn from key spaces twice the initial size, so inserts, updates and deletes hit existing and missing rows
 * alike; an insert of an existing key does nothing ({@code ON CONFLICT DO NOTHING}), a key change to an existing
 * key fails with a unique violation (the caller rolls back). Not thread-safe: one per writer.
 */
final class SourceWrites {

    private final WorkloadSchema schema;
    private final RandomValues values;

    SourceWrites(WorkloadSchema schema, RandomValues values) {
        this.schema = schema;
        this.values = values;
    }

    private int itemKey() {
        return 1 + values.random().nextInt(schema.items() * 2);
    }

    private int orderKey() {
        return 1 + values.random().nextInt(schema.orders() * 2);
    }

    /** Moves a random amount between two different random accounts, locking them in id order. */
    void transfer(Connection c) throws SQLException {
        int a = 1 + values.random().nextInt(schema.accounts());
        int b = 1 + values.random().nextInt(schema.accounts() - 1);
        if (b >= a) {
            b++;
        }
        long amount = values.between(-200, 200);
        try (PreparedStatement update = c.prepareStatement("UPDATE accounts SET balance = balance + ? WHERE id = ?")) {
            for (int id : new int[] {Math.min(a, b), Math.max(a, b)}) {
                update.setLong(1, id == a ? -amount : amount);
                update.setInt(2, id);
                update.executeUpdate();
            }
        }
    }

    void insertItem(Connection c, int id) throws SQLException {
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO items (id, owner, title, qty, small, price,"
            + " amount, ratio, real4, flag, created, at_tz, at_local, at_time, span, tags, nums, meta, doc, blob,"
            + " mood, code, letter, ref) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::interval, ?, ?,"
            + " ?::jsonb, ?::json, ?, ?::chaos_mood, ?, ?, ?) ON CONFLICT DO NOTHING")) {
            insert.setLong(1, id);
            insert.setString(2, values.owner());
            nullable(insert, 3, values.text(), Types.VARCHAR);
            nullable(insert, 4, values.between(0, 100), Types.INTEGER);
            nullable(insert, 5, (short) values.between(-32768, 32767), Types.SMALLINT);
            nullable(insert, 6, values.money(), Types.NUMERIC);
            nullable(insert, 7, values.numeric(), Types.NUMERIC);
            nullable(insert, 8, values.real8(), Types.DOUBLE);
            nullable(insert, 9, values.real4(), Types.REAL);
            insert.setBoolean(10, values.chance(0.5));
            nullable(insert, 11, values.date(), Types.DATE);
            nullable(insert, 12, values.timestampTz(), Types.TIMESTAMP_WITH_TIMEZONE);
            nullable(insert, 13, values.timestamp(), Types.TIMESTAMP);
            nullable(insert, 14, values.time(), Types.TIME);
            nullable(insert, 15, values.interval(), Types.VARCHAR);
            nullable(insert, 16, c.createArrayOf("text", values.textArray()), Types.ARRAY);
            nullable(insert, 17, c.createArrayOf("int4", values.intArray()), Types.ARRAY);
            nullable(insert, 18, values.json(), Types.VARCHAR);
            nullable(insert, 19, values.json(), Types.VARCHAR);
            nullable(insert, 20, values.bytes(), Types.BINARY);
            nullable(insert, 21, values.mood(), Types.VARCHAR);
            nullable(insert, 22, values.code(), Types.VARCHAR);
            nullable(insert, 23, values.code().substring(0, 1), Types.VARCHAR);
            nullable(insert, 24, values.uuid(), Types.OTHER);
            insert.executeUpdate();
        }
    }

    private void nullable(PreparedStatement statement, int index, Object value, int sqlType) throws SQLException {
        if (values.chance(0.08)) {
            statement.setNull(index, sqlType);
        } else {
            statement.setObject(index, value);
        }
    }

    void insertDoc(Connection c, int n) throws SQLException {
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO docs (id, owner, body, meta, version)"
            + " VALUES (?, ?, ?, ?::jsonb, 1) ON CONFLICT DO NOTHING")) {
            insert.setObject(1, RandomValues.docId(n));
            insert.setString(2, values.owner());
            insert.setString(3, values.body());
            insert.setString(4, values.json());
            insert.executeUpdate();
        }
    }

    void insertNote(Connection c, int n) throws SQLException {
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO notes (id, owner, body, created)"
            + " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
            insert.setString(1, RandomValues.noteId(n));
            insert.setString(2, values.owner());
            insert.setString(3, values.text());
            insert.setObject(4, values.timestampTz());
            insert.executeUpdate();
        }
    }

    void insertOrder(Connection c, int order) throws SQLException {
        String owner = values.owner();
        int lines = values.between(1, 4);
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO lines (order_id, line_no, id, owner, sku, qty,"
            + " amount) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
            for (int line = 1; line <= lines; line++) {
                insert.setInt(1, order);
                insert.setInt(2, line);
                insert.setString(3, order + "-" + line);
                insert.setString(4, owner);
                insert.setString(5, values.code());
                insert.setInt(6, values.between(1, 20));
                insert.setBigDecimal(7, values.numeric());
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    /** An insert into a random table of a random key. */
    void insert(Connection c) throws SQLException {
        switch (values.random().nextInt(5)) {
            case 0 -> insertItem(c, itemKey());
            case 1 -> insertDoc(c, itemKey());
            case 2 -> insertNote(c, itemKey());
            case 3 -> insertOrder(c, orderKey());
            default -> {
                int tenant = tenant();
                execute(c, "INSERT INTO " + tenantTable(tenant) + " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    tenantKey(tenant), values.owner(), values.between(0, 20), values.text());
            }
        }
    }

    /**
     * A random tenant ({@link SourceFaults}), whose table may not exist yet: a statement on it then fails with
     * 42P01 or 3F000 and the caller rolls back.
     */
    private int tenant() {
        return 1 + values.random().nextInt(SourceFaults.TENANTS);
    }

    private static String tenantTable(int tenant) {
        return "tenant_" + tenant + ".orders";
    }

    /** A key of {@code tenant}'s table: {@code t<tenant>-<k>}, so ids of different tenants never collide. */
    private String tenantKey(int tenant) {
        return "t" + tenant + "-" + (1 + values.random().nextInt(SourceFaults.TENANT_ROWS * 2));
    }

    /** An update of a random key of a random table (possibly of no row). */
    void update(Connection c) throws SQLException {
        switch (values.random().nextInt(6)) {
            case 0 -> execute(c, "UPDATE items SET qty = ?, flag = NOT flag, title = ?, owner = ? WHERE id = ?",
                values.between(0, 100), values.text(), values.owner(), (long) itemKey());
            case 1 -> execute(c, "UPDATE items SET ratio = ?, tags = ?, meta = ?::jsonb, span = ?::interval"
                    + " WHERE id = ?", values.real8(), c.createArrayOf("text", values.textArray()), values.json(),
                values.interval(), (long) itemKey());
            case 2 -> execute(c, "UPDATE docs SET version = version + 1, meta = ?::jsonb WHERE id = ?",
                values.json(), RandomValues.docId(itemKey()));
            case 3 -> execute(c, "UPDATE notes SET body = ?, owner = ? WHERE id = ?", values.text(), values.owner(),
                RandomValues.noteId(itemKey()));
            case 4 -> execute(c, "UPDATE lines SET qty = qty + 1, amount = ? WHERE order_id = ?",
                values.numeric(), orderKey());
            default -> {
                int tenant = tenant();
                execute(c, "UPDATE " + tenantTable(tenant) + " SET qty = qty + 1, note = ?, owner = ? WHERE id = ?",
                    values.text(), values.owner(), tenantKey(tenant));
            }
        }
    }

    /** A delete of a random key of a random table. */
    void delete(Connection c) throws SQLException {
        switch (values.random().nextInt(5)) {
            case 0 -> execute(c, "DELETE FROM items WHERE id = ?", (long) itemKey());
            case 1 -> execute(c, "DELETE FROM docs WHERE id = ?", RandomValues.docId(itemKey()));
            case 2 -> execute(c, "DELETE FROM notes WHERE id = ?", RandomValues.noteId(itemKey()));
            case 3 -> execute(c, "DELETE FROM lines WHERE order_id = ? AND line_no = ?", orderKey(),
                values.between(1, 4));
            default -> {
                int tenant = tenant();
                execute(c, "DELETE FROM " + tenantTable(tenant) + " WHERE id = ?", tenantKey(tenant));
            }
        }
    }

    /** A primary key change of a random row of a random table (to a key that may be taken: 23505). */
    void changeKey(Connection c) throws SQLException {
        switch (values.random().nextInt(4)) {
            case 0 -> execute(c, "UPDATE items SET id = ? WHERE id = ?", (long) itemKey(), (long) itemKey());
            case 1 -> execute(c, "UPDATE docs SET id = ?, version = version + 1 WHERE id = ?",
                RandomValues.docId(itemKey()), RandomValues.docId(itemKey()));
            case 2 -> execute(c, "UPDATE notes SET id = ? WHERE id = ?", RandomValues.noteId(itemKey()),
                RandomValues.noteId(itemKey()));
            default -> {
                int order = orderKey();
                int line = values.between(1, 4);
                execute(c, "UPDATE lines SET order_id = ?, line_no = ?, id = ? WHERE order_id = ? AND line_no = ?",
                    order, line, order + "-" + line, orderKey(), values.between(1, 4));
            }
        }
    }

    private static void execute(Connection c, String sql, Object... parameters) throws SQLException {
        try (PreparedStatement statement = c.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            statement.executeUpdate();
        }
    }
}
