package io.tributary.chaos.workload;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The chaos source schema in {@code public}, its initial rows and the sync rules over it.
 *
 * <ul>
 *   <li>{@code accounts (id integer)}: {@code accounts} rows of balance {@value #INITIAL_BALANCE}; only transfers
 *       change them, so the total is always {@link #totalBalance()}. Integer keys hash over every partition; the
 *       global bucket {@value #ACCOUNTS_BUCKET} holds them all.</li>
 *   <li>{@code items (id bigint)}: nearly every supported column type, scalar and array, NULLs included.</li>
 *   <li>{@code docs (id uuid)}: bodies large enough to be TOASTed, updated without touching them.</li>
 *   <li>{@code notes (id text)}: non-ASCII text keys.</li>
 *   <li>{@code lines (id)}: a text key {@code order_id-line_no}, with {@code (order_id, line_no)} unique; a key
 *       change moves a line to another order and line number (a data query's id must be the primary key).</li>
 * </ul>
 *
 * @param accounts number of accounts
 * @param items    initial rows of items, notes and docs each; their key spaces are twice as large
 * @param orders   initial orders of lines (one to four lines each)
 */
public record WorkloadSchema(int accounts, int items, int orders) {

    /** Every account's balance at the start. */
    public static final long INITIAL_BALANCE = 1_000;
    /** The bucket holding every account. */
    public static final String ACCOUNTS_BUCKET = "all_accounts[]";
    /** The output table of accounts in the rules. */
    public static final String ACCOUNTS_TABLE = "accounts";
    /** The tables the workload writes, as {@code schema.table}. */
    public static final List<String> TABLES = List.of("public.accounts", "public.items", "public.docs",
        "public.notes", "public.lines");

    /**
     * The sync rules: accounts in one global bucket, the rest by owner, a filtered global bucket, and the orders of
     * every tenant schema ({@code tenant_<n>.orders}, created while the pipeline runs: {@link SourceFaults}) by owner.
     */
    public static final String SYNC_RULES = """
        bucket_definitions:
          all_accounts:
            data:
              - SELECT id, owner, balance FROM accounts
          by_owner:
            parameters: SELECT request.user_id() AS owner
            data:
              - SELECT * FROM items WHERE owner = bucket.owner
              - SELECT * FROM docs WHERE owner = bucket.owner
              - SELECT id, owner, body, created FROM notes WHERE owner = bucket.owner
              - SELECT * FROM lines WHERE owner = bucket.owner
          flagged:
            data:
              - SELECT id, title, qty, price FROM items WHERE flag = TRUE AND qty > 50
          tenant_orders:
            parameters: SELECT request.user_id() AS owner
            data:
              - SELECT * FROM "tenant_%".orders WHERE owner = bucket.owner
        """;

    private static final List<String> DDL = List.of(
        "CREATE TYPE chaos_mood AS ENUM ('calm', 'busy', 'wild', 'Mixed Case', 'with space')",
        "CREATE TABLE accounts (id integer PRIMARY KEY, owner text NOT NULL, balance bigint NOT NULL)",
        "CREATE TABLE items (id bigint PRIMARY KEY, owner text NOT NULL, title text, qty integer, small smallint,"
            + " price numeric(12,2), amount numeric, ratio double precision, real4 real, flag boolean NOT NULL,"
            + " created date, at_tz timestamptz, at_local timestamp, at_time time, span interval, tags text[],"
            + " nums integer[], meta jsonb, doc json, blob bytea, mood chaos_mood, code varchar(16),"
            + " letter char(3), ref uuid)",
        "CREATE TABLE docs (id uuid PRIMARY KEY, owner text NOT NULL, body text, meta jsonb, version integer)",
        "CREATE TABLE notes (id text PRIMARY KEY, owner text NOT NULL, body text, created timestamptz)",
        "CREATE TABLE lines (order_id integer NOT NULL, line_no integer NOT NULL, id text PRIMARY KEY,"
            + " owner text NOT NULL, sku text, qty integer, amount numeric, UNIQUE (order_id, line_no))");

    public WorkloadSchema {
        if (accounts < 2 || items < 1 || orders < 1) {
            throw new IllegalArgumentException("Need >= 2 accounts and >= 1 item and order: " + accounts + ", "
                + items + ", " + orders);
        }
    }

    /** {@link #TABLES} and the tenant tables the source has now, as {@code schema.table}. */
    public static List<String> tables(Connection source) throws SQLException {
        List<String> tables = new ArrayList<>(TABLES);
        try (Statement statement = source.createStatement();
             ResultSet rs = statement.executeQuery("SELECT n.nspname || '.' || c.relname FROM pg_class c"
                 + " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname LIKE 'tenant\\_%'"
                 + " AND c.relname = 'orders' AND c.relkind = 'r' ORDER BY 1")) {
            while (rs.next()) {
                tables.add(rs.getString(1));
            }
        }
        return tables;
    }

    /** The sum of all balances, at every moment. */
    public long totalBalance() {
        return accounts * INITIAL_BALANCE;
    }

    /**
     * Creates the tables, with their row history ({@link SourceHistory}), and loads the initial rows, drawn from
     * {@code seed}.
     */
    public void create(Connection source, long seed) throws SQLException {
        SourceHistory.install(source);
        try (Statement statement = source.createStatement()) {
            for (String ddl : DDL) {
                statement.execute(ddl);
            }
            for (String table : TABLES) {
                SourceHistory.record(source, table);
            }
            statement.execute("INSERT INTO accounts SELECT i, 'owner-' || (i % 7), " + INITIAL_BALANCE
                + " FROM generate_series(1, " + accounts + ") i");
        }
        SourceWrites writes = new SourceWrites(this, new RandomValues(new Random(seed)));
        boolean autoCommit = source.getAutoCommit();
        source.setAutoCommit(false);
        try {
            for (int n = 1; n <= items; n++) {
                writes.insertItem(source, n);
                writes.insertDoc(source, n);
                writes.insertNote(source, n);
            }
            for (int order = 1; order <= orders; order++) {
                writes.insertOrder(source, order);
            }
            source.commit();
        } finally {
            source.setAutoCommit(autoCommit);
        }
    }
}
