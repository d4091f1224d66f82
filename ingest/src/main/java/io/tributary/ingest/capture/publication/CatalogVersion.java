package io.tributary.ingest.capture.publication;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * What a capture refresh reads of the source's catalog, summed up in one value that changes whenever any of it
 * changes: per catalog table (relations, schemas, indexes, columns, publications and their tables), the count of
 * its visible rows and the sum of their creating transaction ids ({@code xmin}).
 *
 * <p>Why it changes: a committed transaction that creates, alters or drops a table, a key, a column, a schema or a
 * publication membership leaves catalog rows whose {@code xmin} is its own transaction id, newer than every
 * {@code xmin} it replaced, or only deletes rows, which lowers a count; either moves the value. It may also move
 * when nothing a refresh reads changed (freezing, temporary tables of other sessions): that only costs one full
 * refresh. Two versions compare equal only if read from the same catalog state, barring transaction id wraparound
 * arithmetic that would have to cancel exactly.
 *
 * <p>Cost: one scan of each of these catalog tables, no join, no per-table statement; a few milliseconds with
 * 10,000 tables, where a full refresh reads and joins them per selected table.
 *
 * @param value the summed-up catalog state; meaningful only compared with another read of the same database
 */
record CatalogVersion(String value) {

    private static final String READ = """
        SELECT concat_ws('/',
            (SELECT count(*) || ':' || coalesce(sum(xmin::text::bigint), 0) FROM pg_catalog.pg_class),
            (SELECT count(*) || ':' || coalesce(sum(xmin::text::bigint), 0) FROM pg_catalog.pg_namespace),
            (SELECT count(*) || ':' || coalesce(sum(xmin::text::bigint), 0) FROM pg_catalog.pg_index),
            (SELECT count(*) || ':' || coalesce(sum(xmin::text::bigint), 0) FROM pg_catalog.pg_attribute),
            (SELECT count(*) || ':' || coalesce(sum(xmin::text::bigint), 0) FROM pg_catalog.pg_publication),
            (SELECT count(*) || ':' || coalesce(sum(xmin::text::bigint), 0) FROM pg_catalog.pg_publication_rel))""";

    /** The catalog's version now, read on {@code connection}. */
    static CatalogVersion read(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(READ)) {
            rs.next();
            return new CatalogVersion(rs.getString(1));
        }
    }
}
