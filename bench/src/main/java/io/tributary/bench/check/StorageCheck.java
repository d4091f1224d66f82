package io.tributary.bench.check;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.postgres.PgEndpoint;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Locale;

/**
 * Checks that a group's bucket storage holds exactly the source rows of a bench table set, before a rate counts
 * them: one PUT per source row and nothing else, each in the bucket of its owner, its data equal to the source row
 * field by field, its checksum the first 4 bytes (little-endian) of sha256 over {@code put.<table>.<id>.<data>}.
 * Independent of the pipeline's code: source rows are read with plain SQL, data is compared as parsed JSON values
 * (so a change of number or timestamp formatting does not fail it, a wrong value does), checksums are recomputed
 * here.
 *
 * <p>The comparison is of multisets, through an order-independent fingerprint (count and wrapping sum of a 64-bit
 * hash per row), so tables whose rows share {@code (bucket, table, id)} (the tenant tables) are checked too, and
 * memory stays flat. The tables must have the bench shape: {@code id bigint, owner, title, body, n,
 * updated_at timestamptz}. Stateless.
 */
public final class StorageCheck {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The outcome: rows compared, and the first problem found, if any. */
    public record Result(long sourceRows, long storedOps, String problem) {

        /** Whether storage matched the source. */
        public boolean ok() {
            return problem.isEmpty();
        }

        /** A note for the result table. */
        public String note() {
            return ok() ? String.format(Locale.ROOT, "storage checked: %,d rows = source, checksums recomputed",
                storedOps) : "STORAGE CHECK FAILED: " + problem;
        }
    }

    /** A source table and the output table name its rows have in bucket storage. */
    public record Table(String qualifiedName, String outputName) {
    }

    /** What a group's storage must hold: the rows of {@code tables}, in buckets {@code <definition>["<owner>"]}. */
    public record Expected(List<Table> tables, String definition) {
        public Expected {
            tables = List.copyOf(tables);
        }

        /** The same tables in the buckets of another definition. */
        public Expected withDefinition(String other) {
            return new Expected(tables, other);
        }
    }

    private StorageCheck() {
    }

    /**
     * Compares group {@code groupId}'s ops in {@code storage} with {@code expectedRows} read from {@code source}.
     */
    public static Result check(PgEndpoint source, Expected expectedRows, PgEndpoint storage, long groupId)
        throws SQLException {
        List<Table> tables = expectedRows.tables();
        String definition = expectedRows.definition();
        Fingerprint expected = new Fingerprint();
        try (Connection c = source.connect()) {
            c.setAutoCommit(false);
            for (Table table : tables) {
                try (Statement s = c.createStatement()) {
                    s.setFetchSize(5_000);
                    try (ResultSet rs = s.executeQuery("SELECT id, owner, title, body, n, updated_at FROM "
                        + table.qualifiedName())) {
                        while (rs.next()) {
                            String owner = rs.getString(2);
                            Instant updated = rs.getObject(6, OffsetDateTime.class).toInstant();
                            expected.add(row(definition + "[\"" + owner + "\"]", table.outputName(), rs.getLong(1),
                                owner, rs.getString(3), rs.getString(4), rs.getInt(5), updated));
                        }
                    }
                }
            }
            c.commit();
        }
        Fingerprint stored = new Fingerprint();
        try (Connection c = storage.connect()) {
            c.setAutoCommit(false);
            try (PreparedStatement s = c.prepareStatement("SELECT bucket, op, source_table, row_id, checksum, data"
                + " FROM tributary.bucket_data WHERE group_id = ?")) {
                s.setFetchSize(5_000);
                s.setLong(1, groupId);
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        String problem = storedRow(rs, stored);
                        if (!problem.isEmpty()) {
                            return new Result(expected.count, stored.count + 1, problem);
                        }
                    }
                }
            }
            c.commit();
        }
        if (expected.count != stored.count) {
            return new Result(expected.count, stored.count, String.format(Locale.ROOT,
                "%,d ops stored for %,d source rows", stored.count, expected.count));
        }
        if (expected.sum != stored.sum) {
            return new Result(expected.count, stored.count, "the stored rows differ from the source rows");
        }
        return new Result(expected.count, stored.count, "");
    }

    private static String storedRow(ResultSet rs, Fingerprint stored) throws SQLException {
        String bucket = rs.getString(1);
        String table = rs.getString(3);
        String rowId = rs.getString(4);
        String data = rs.getString(6);
        if (rs.getInt(2) != 1 || data == null) {
            return "an op other than PUT in bucket " + bucket + " for row " + rowId;
        }
        long checksum = checksum("put." + table + "." + rowId + "." + data);
        if (checksum != rs.getLong(5)) {
            return "checksum " + rs.getLong(5) + " of " + bucket + " row " + rowId + " is not " + checksum;
        }
        JsonNode row;
        try {
            row = JSON.readTree(data);
        } catch (java.io.IOException e) {
            return "data of " + bucket + " row " + rowId + " is not JSON: " + e.getMessage();
        }
        if (!row.path("id").asText().equals(rowId)) {
            return "row id " + rowId + " is not the data's id " + row.path("id");
        }
        Instant updated;
        try {
            updated = instant(row.path("updated_at").asText());
        } catch (RuntimeException e) {
            return "updated_at of " + bucket + " row " + rowId + " is not an instant: " + row.path("updated_at");
        }
        stored.add(row(bucket, table, row.path("id").asLong(), row.path("owner").asText(), row.path("title").asText(),
            row.path("body").asText(), row.path("n").asInt(), updated));
        return "";
    }

    /** An instant written as ISO-8601 ({@code 2026-01-01T00:00:01Z}) or as Postgres text ({@code ... 00:00:01+00}). */
    static Instant instant(String text) {
        String iso = text.replace(' ', 'T');
        if (iso.matches(".*[+-]\\d\\d$")) {
            iso = iso + ":00";
        }
        return OffsetDateTime.parse(iso.endsWith("Z") ? iso.substring(0, iso.length() - 1) + "+00:00" : iso)
            .toInstant();
    }

    private static long row(String bucket, String table, long id, String owner, String title, String body, int n,
                            Instant updated) {
        String text = bucket + '\u0000' + table + '\u0000' + id + '\u0000' + owner + '\u0000' + title + '\u0000'
            + body + '\u0000' + n + '\u0000' + updated.getEpochSecond() + '.' + updated.getNano();
        return ByteBuffer.wrap(sha256(text)).getLong();
    }

    /** First 4 bytes of sha256, little-endian, unsigned. */
    private static long checksum(String text) {
        return ByteBuffer.wrap(sha256(text), 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt() & 0xFFFF_FFFFL;
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("no SHA-256", e);
        }
    }

    /** Count and wrapping sum of row hashes: equal for equal multisets. */
    private static final class Fingerprint {
        long count;
        long sum;

        void add(long hash) {
            count++;
            sum += hash;
        }
    }
}
