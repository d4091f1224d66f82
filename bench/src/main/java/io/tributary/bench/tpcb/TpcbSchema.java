package io.tributary.bench.tpcb;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The TPC-B-style source of scenario T, shaped as pgbench's: {@code branches}, {@code tellers} (10 per branch),
 * {@code accounts} (the group's bulk: 100,000 per branch unless fewer are asked) and {@code history}, which the
 * transactions append to. {@code history} has a generated key, as capture needs one, and no sync rules read it,
 * so a group holds exactly the three other tables.
 *
 * @param accounts rows of {@code accounts}; at least 1
 */
public record TpcbSchema(long accounts) {

    /** Accounts per branch, as in pgbench (scale 1 = 100,000 accounts). */
    static final long ACCOUNTS_PER_BRANCH = 100_000;
    /** Tellers per branch, as in pgbench. */
    static final int TELLERS_PER_BRANCH = 10;

    public TpcbSchema {
        if (accounts < 1) {
            throw new IllegalArgumentException("accounts must be >= 1: " + accounts);
        }
    }

    /** Branches: one per 100,000 accounts, at least one. */
    public int branches() {
        return (int) Math.max(1, accounts / ACCOUNTS_PER_BRANCH);
    }

    /** Tellers: 10 per branch. */
    public int tellers() {
        return branches() * TELLERS_PER_BRANCH;
    }

    /** Rows of a group: every account, teller and branch. */
    public long groupRows() {
        return accounts + tellers() + branches();
    }

    /** Creates the four tables (dropping older ones), filled, vacuumed and analyzed. */
    public void load(Connection source) throws SQLException {
        source.setAutoCommit(true);
        try (Statement s = source.createStatement()) {
            s.execute("DROP TABLE IF EXISTS history, accounts, tellers, branches");
            s.execute("CREATE TABLE branches (bid int PRIMARY KEY, bbalance int NOT NULL, filler char(88))");
            s.execute("CREATE TABLE tellers (tid int PRIMARY KEY, bid int NOT NULL, tbalance int NOT NULL,"
                + " filler char(84))");
            s.execute("CREATE TABLE accounts (aid bigint PRIMARY KEY, bid int NOT NULL, abalance int NOT NULL,"
                + " filler char(84))");
            s.execute("CREATE TABLE history (hid bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, tid int NOT NULL,"
                + " bid int NOT NULL, aid bigint NOT NULL, delta int NOT NULL, mtime timestamptz NOT NULL,"
                + " filler char(22))");
            s.execute("INSERT INTO branches SELECT g, 0, '' FROM generate_series(1, " + branches() + ") g");
            s.execute("INSERT INTO tellers SELECT g, (g - 1) / " + TELLERS_PER_BRANCH + " + 1, 0, ''"
                + " FROM generate_series(1, " + tellers() + ") g");
            s.execute("INSERT INTO accounts SELECT g, least((g - 1) / " + ACCOUNTS_PER_BRANCH + " + 1, "
                + branches() + "), 0, '' FROM generate_series(1, " + accounts + ") g");
            s.execute("VACUUM ANALYZE branches, tellers, accounts, history");
        }
    }

    /** The bucket definition of rules version {@code version}. */
    public static String definition(int version) {
        return "by_branch_v" + version;
    }

    /** Sync rules: one bucket per branch holding its branch, tellers and accounts; {@code version} renames it. */
    public static String syncRules(int version) {
        return String.join("\n",
            "bucket_definitions:",
            "  " + definition(version) + ":",
            "    parameters: SELECT request.user_id() AS bid",
            "    data:",
            "      - SELECT bid AS id, bbalance FROM branches WHERE bid = bucket.bid",
            "      - SELECT tid AS id, bid, tbalance FROM tellers WHERE bid = bucket.bid",
            "      - SELECT aid AS id, bid, abalance FROM accounts WHERE bid = bucket.bid",
            "");
    }
}
