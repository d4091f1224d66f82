package io.tributary.source.encoding.internals;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.sql.ResultSet;
import java.sql.SQLException;

/** Writes the canonical value of one column of the current JDBC row ({@code null} for SQL NULL). */
@FunctionalInterface
public interface JdbcColumnWriter {

    void write(ResultSet row, int index, JsonGenerator out) throws SQLException, IOException;
}
