package io.tributary.bench.pipeline;

import io.tributary.bench.check.StorageCheck;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The bench's source data: one table {@code public.items} of ~500 B rows (a bigint key, an owner among 1,000,
 * a title, a 416-character body, an int and a timestamp), and sync rules that put each owner's items in a bucket.
 * The body is one MD5 repeated ({@link Body#REPEATED}, what Kafka's compression shrinks about eightfold) unless a run
 * asks for thirteen different ones ({@link Body#DISTINCT}, hex text that lz4 barely shrinks).
 */
public final class Dataset {

    /** The table every scenario reads. */
    public static final String TABLE = "public.items";

    /** The 416 characters of a row's body. */
    public enum Body {
        /** One MD5 of the row's id, thirteen times. */
        REPEATED("repeat(md5(g::text), 13)"),
        /** Thirteen MD5s of the row's id and a counter: 416 hex digits with no repeat inside a row. */
        DISTINCT(IntStream.rangeClosed(1, 13).mapToObj(i -> "md5(g::text || '." + i + "')")
            .collect(Collectors.joining(" || ")));

        private final String sql;

        Body(String sql) {
            this.sql = sql;
        }
    }

    private Dataset() {
    }

    /** Creates {@code public.items} with {@code rows} rows of the repeated body. */
    public static void load(Connection source, long rows) throws SQLException {
        load(source, rows, Body.REPEATED);
    }

    /** Creates {@code public.items} with {@code rows} rows (dropping an older one), vacuumed and analyzed. */
    public static void load(Connection source, long rows, Body body) throws SQLException {
        source.setAutoCommit(true);
        try (Statement s = source.createStatement()) {
            s.execute("DROP TABLE IF EXISTS public.items");
            s.execute("CREATE TABLE public.items (id bigint PRIMARY KEY, owner text NOT NULL, title text NOT NULL,"
                + " body text NOT NULL, n int NOT NULL, updated_at timestamptz NOT NULL)");
            s.execute("INSERT INTO public.items SELECT g, 'u' || (g % 1000), 'item number ' || g,"
                + " " + body.sql + ", g % 100, timestamptz '2026-01-01 00:00:00+00' + g * interval '1 s'"
                + " FROM generate_series(1, " + rows + ") g");
            s.execute("VACUUM ANALYZE public.items");
        }
    }

    /**
     * Commits {@code updates} rounds of {@code n = n + 1} over every row of {@code public.items} (ids 1 to
     * {@code rows}), {@code transactionRows} rows per transaction: {@code rows x updates} WAL changes.
     */
    public static void update(Connection source, long rows, int updates, int transactionRows) throws SQLException {
        source.setAutoCommit(true);
        try (Statement s = source.createStatement()) {
            for (int round = 0; round < updates; round++) {
                for (long first = 1; first <= rows; first += transactionRows) {
                    s.executeUpdate("UPDATE public.items SET n = n + 1 WHERE id BETWEEN " + first + " AND "
                        + (first + transactionRows - 1));
                }
            }
        }
    }

    /** The bucket definition of {@link #syncRules(int) version} {@code version}. */
    public static String definition(int version) {
        return "by_owner_v" + version;
    }

    /** What storage holds after a snapshot or replay of {@code items} with rules of {@code version}. */
    public static StorageCheck.Expected expected(int version) {
        return new StorageCheck.Expected(List.of(new StorageCheck.Table(TABLE, "items")), definition(version));
    }

    /** Sync rules over the items: one bucket per owner; {@code version} only renames the bucket. */
    public static String syncRules(int version) {
        return String.join("\n",
            "bucket_definitions:",
            "  " + definition(version) + ":",
            "    parameters: SELECT request.user_id() AS owner",
            "    data:",
            "      - SELECT * FROM items WHERE owner = bucket.owner",
            "");
    }
}
