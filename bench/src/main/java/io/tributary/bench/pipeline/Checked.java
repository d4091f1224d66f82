package io.tributary.bench.pipeline;

import io.tributary.bench.check.StorageCheck;
import io.tributary.bench.pipeline.ResultTable.Row;
import io.tributary.postgres.PgEndpoint;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A completed pipeline row counts only once its storage holds the source: {@link #row} runs the
 * {@link StorageCheck} on the newest group of the run's storage and turns the row into a failure when it does not
 * match. The check runs after the measurement's clock stopped; its CPU is outside the row's window only where the
 * row measures its own CPU.
 */
public final class Checked {

    private Checked() {
    }

    /** {@code row} with the check's note, or a FAILED row naming the mismatch. */
    public static Row row(Row row, PgEndpoint source, StorageCheck.Expected expected, PgEndpoint storage)
        throws SQLException {
        if (!row.isOk()) {
            return row;
        }
        StorageCheck.Result result = StorageCheck.check(source, expected, storage, newestGroup(storage));
        BenchContext.log("%s: %s", row.scenario(), result.note());
        return result.ok() ? row.withNotePrefix(result.note())
            : Row.failed(row.scenario(), row.configuration(), row.rows(), row.seconds(), result.note());
    }

    /** The id of the newest sync rules group of {@code storage}. */
    public static long newestGroup(PgEndpoint storage) throws SQLException {
        try (Connection c = storage.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT max(group_id) FROM tributary.sync_rules")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
