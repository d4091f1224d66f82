package io.tributary.chaos.workload;

import io.tributary.postgres.PgEndpoint;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Every version of every workload row, kept in the source itself so the checkpoint auditor can read the source
 * "as of" any commit: a row trigger on each workload table appends to {@code chaos_history}, in the writing
 * transaction, one entry per row version ({@code cols} the columns in Postgres' own text forms) and one per row
 * that leaves a key (a delete, or the old key of a key change, {@code cols} NULL). The entry carries the writing
 * transaction's id ({@code txid}); the commit LSN of that transaction comes from the WAL ({@code CommitLog} of the
 * chaos checks), so nothing here depends on the pipeline.
 *
 * <p>Text forms are those of a session in UTC with ISO dates and {@code postgres} intervals (the function sets
 * them for itself); {@code json} columns are recorded in {@code jsonb}'s form and arrays as {@code array_to_json}
 * text, the forms the sync rules document for them. Every audited table has its primary key in a column named
 * {@code id}. Stateless.
 */
public final class SourceHistory {

    /** The history table, in the source's {@code public} schema. */
    public static final String TABLE = "chaos_history";

    private static final String INSTALL = """
        CREATE EXTENSION IF NOT EXISTS hstore;
        CREATE TABLE chaos_history (
            seq  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            txid bigint NOT NULL DEFAULT txid_current(),
            tbl  text   NOT NULL,
            pk   text   NOT NULL,
            cols jsonb
        );
        CREATE INDEX chaos_history_txid ON chaos_history (txid);
        CREATE FUNCTION chaos_record_version() RETURNS trigger LANGUAGE plpgsql
            SET timezone TO 'UTC' SET datestyle TO 'ISO, MDY' SET intervalstyle TO 'postgres'
            SET extra_float_digits TO 1 AS $$
        DECLARE
            tbl text := TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME;
            version jsonb;
        BEGIN
            IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND OLD.id IS DISTINCT FROM NEW.id) THEN
                INSERT INTO chaos_history (tbl, pk, cols) VALUES (tbl, OLD.id::text, NULL);
            END IF;
            IF TG_OP IN ('INSERT', 'UPDATE') THEN
                version := hstore_to_jsonb(hstore(NEW));
                IF TG_TABLE_NAME = 'items' THEN
                    version := version || jsonb_build_object('doc', NEW.doc::jsonb::text,
                        'tags', array_to_json(NEW.tags)::text, 'nums', array_to_json(NEW.nums)::text);
                END IF;
                INSERT INTO chaos_history (tbl, pk, cols) VALUES (tbl, NEW.id::text, version);
            END IF;
            RETURN NULL;
        END
        $$;
        """;

    private SourceHistory() {
    }

    /** Creates the history table and its trigger function (once per source database, before any table). */
    public static void install(Connection source) throws SQLException {
        try (Statement statement = source.createStatement()) {
            statement.execute(INSTALL);
        }
    }

    /** Records every later version of {@code table} ({@code schema.table}, quoted as needed). */
    public static void record(Connection source, String table) throws SQLException {
        try (Statement statement = source.createStatement()) {
            statement.execute("CREATE TRIGGER chaos_record_version AFTER INSERT OR UPDATE OR DELETE ON " + table
                + " FOR EACH ROW EXECUTE FUNCTION chaos_record_version()");
        }
    }

    /** How many row versions the history holds so far: what the workload (and the faults) committed. */
    public static long versions(PgEndpoint source) throws SQLException {
        try (Connection c = source.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT coalesce(max(seq), 0) FROM " + TABLE)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
