package io.tributary.bench.direct;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * Lines of {@code COPY} text gathered for one {@code COPY ... FROM STDIN} statement and sent in one copy. Not
 * thread-safe.
 */
final class CopyLines {

    private final String statement;
    private final ByteArrayOutputStream lines;
    private int count;

    /** Lines for {@code statement}, with room for {@code initialBytes} before the buffer grows. */
    CopyLines(String statement, int initialBytes) {
        this.statement = statement;
        this.lines = new ByteArrayOutputStream(initialBytes);
    }

    /** Adds {@code line}, its fields escaped ({@link CopyText}) and ending in a newline. */
    void add(String line) {
        lines.writeBytes(line.getBytes(StandardCharsets.UTF_8));
        count++;
    }

    /** The lines added since the last copy. */
    int size() {
        return count;
    }

    /** Copies the lines added since the last copy into {@code storage}, in its open transaction. */
    void copyInto(Connection storage) throws SQLException {
        if (count == 0) {
            return;
        }
        CopyIn copy = storage.unwrap(PGConnection.class).getCopyAPI().copyIn(statement);
        byte[] bytes = lines.toByteArray();
        copy.writeToCopy(bytes, 0, bytes.length);
        copy.endCopy();
        lines.reset();
        count = 0;
    }
}
