package io.tributary.chaos.workload;

import io.tributary.postgres.PgEndpoint;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Random;

/**
 * Faults the source itself causes, for the fault injector: a transaction that writes to every partition at once
 * (to kill ingest while it reads or sends it), and a new tenant schema whose table the rules' wildcard matches.
 * Tenants are numbered from 1 ({@code tenant_1.orders}, ...); the workload writes to the first
 * {@value #TENANTS} of them once they exist. Not thread-safe: one per injector.
 */
public final class SourceFaults {

    /** How many tenants the workload writes to (a run creates one per phase). */
    public static final int TENANTS = 2;
    /** Rows of a new tenant's table, created with it. */
    static final int TENANT_ROWS = 60;
    /** {@link #TENANT_ROWS} in words, for the report. */
    public static final String TENANT_ROWS_TEXT = TENANT_ROWS + " rows";

    private final PgEndpoint source;
    private final Random random;
    private int tenants;

    public SourceFaults(PgEndpoint source, long seed) {
        this.source = source;
        this.random = new Random(seed * 17 + 3);
    }

    /**
     * Commits one transaction that moves the {@code created} time of about a third of the notes (keys hash over
     * every partition), retrying a deadlock with the workload's writers.
     *
     * @return what it did, for the report
     */
    public String wideTransaction() throws SQLException {
        int third = random.nextInt(3);
        for (int attempt = 1; ; attempt++) {
            try (Connection c = source.connect(); PreparedStatement update = c.prepareStatement(
                "UPDATE notes SET created = created + interval '1 second' WHERE abs(hashtext(id)) % 3 = ?")) {
                c.setAutoCommit(false);
                update.setInt(1, third);
                int rows = update.executeUpdate();
                c.commit();
                return "a transaction of " + rows + " notes committed";
            } catch (SQLException e) {
                if (attempt >= 5 || !("40P01".equals(e.getSQLState()) || "40001".equals(e.getSQLState()))) {
                    throw e;
                }
            }
        }
    }

    /**
     * Creates the next tenant: schema {@code tenant_<n>}, its table {@code orders} (text key {@code t<n>-<k>}, so
     * ids differ between tenants in one bucket) with its row history and {@value #TENANT_ROWS} rows, in one
     * transaction.
     *
     * @return the table created, as {@code schema.table}
     */
    public String newTenant() throws SQLException {
        return newTenant("id text PRIMARY KEY, owner text NOT NULL");
    }

    /**
     * Creates the next tenant as {@link #newTenant()} does, but with primary key {@code (id, owner)}, a key the
     * rules' {@code id} cannot use ({@code id} stays unique, so {@link #fixTenantKey} can make it the key).
     *
     * @return the table created, as {@code schema.table}
     */
    public String newTenantKeyedByIdAndOwner() throws SQLException {
        return newTenant("id text NOT NULL UNIQUE, owner text NOT NULL, PRIMARY KEY (id, owner)");
    }

    /** Makes {@code id} the primary key of {@code table} (one of {@link #newTenantKeyedByIdAndOwner()}). */
    public void fixTenantKey(String table) throws SQLException {
        try (Connection c = source.connect(); Statement statement = c.createStatement()) {
            c.setAutoCommit(false);
            statement.execute("ALTER TABLE " + table + " DROP CONSTRAINT orders_pkey");
            statement.execute("ALTER TABLE " + table + " ADD PRIMARY KEY (id)");
            c.commit();
        }
    }

    private String newTenant(String keyColumns) throws SQLException {
        int n = ++tenants;
        String table = "tenant_" + n + ".orders";
        try (Connection c = source.connect(); Statement statement = c.createStatement()) {
            c.setAutoCommit(false);
            statement.execute("CREATE SCHEMA tenant_" + n);
            statement.execute("CREATE TABLE " + table + " (" + keyColumns + ", qty integer, note text)");
            SourceHistory.record(c, table);
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO " + table + " VALUES (?, ?, ?, ?)")) {
                for (int k = 1; k <= TENANT_ROWS; k++) {
                    insert.setString(1, "t" + n + "-" + k);
                    insert.setString(2, "u" + random.nextInt(8));
                    insert.setInt(3, random.nextInt(20));
                    insert.setString(4, "first " + k);
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            c.commit();
        }
        return table;
    }
}
