package io.tributary.source.encoding;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import io.tributary.source.catalog.SourceColumn;
import io.tributary.source.catalog.TableSchema;
import io.tributary.source.encoding.internals.JdbcColumnWriter;
import io.tributary.source.encoding.internals.JdbcColumnWriters;
import io.tributary.source.encoding.internals.JsonTextWriter;
import io.tributary.source.encoding.internals.UnencodableValueException;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.RowJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Encodes rows read by JDBC (the snapshot path) into the canonical form (see the package comment). Built once per
 * table; a chunk read selects {@link #selectList()} and passes each row of the result set to {@link #encode}.
 *
 * <p>Exact regardless of pgjdbc's transfer mode (text, or binary after {@code prepareThreshold}), of the JVM's
 * default time zone and of the session's {@code TimeZone}. Relies on pgjdbc's forced {@code DateStyle=ISO} and
 * {@code extra_float_digits}, and on the session's {@code IntervalStyle} being {@code postgres} (the default) or
 * {@code iso_8601}.
 *
 * <p>Not thread-safe (it reuses one output buffer): use one encoder per thread.
 */
public final class JdbcRowEncoder {

    private final TableSchema table;
    private final SerializedString[] names;
    private final JdbcColumnWriter[] writers;
    private final int[] keyPositions;
    private final String selectList;
    private final JsonTextWriter rowWriter = new JsonTextWriter();
    private final JsonTextWriter keyWriter = new JsonTextWriter();

    private JdbcRowEncoder(TableSchema table) {
        this.table = table;
        List<SourceColumn> columns = table.columns();
        this.names = new SerializedString[columns.size()];
        this.writers = new JdbcColumnWriter[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            names[i] = new SerializedString(columns.get(i).name());
            writers[i] = JdbcColumnWriters.writer(columns.get(i));
        }
        this.keyPositions = table.keyColumnPositions();
        this.selectList = columns.stream().map(JdbcColumnWriters::selectExpression)
            .collect(Collectors.joining(", "));
    }

    /** An encoder for rows of {@code table}. */
    public static JdbcRowEncoder forTable(TableSchema table) {
        return new JdbcRowEncoder(Objects.requireNonNull(table, "table"));
    }

    /** The table this encoder is for. */
    public TableSchema table() {
        return table;
    }

    /**
     * The select list a read must use, columns in catalog order, e.g. {@code "id", "name", "tags"::text}: the
     * result set's columns 1..n are then the table's columns in order.
     */
    public String selectList() {
        return selectList;
    }

    /**
     * Encodes the current row of {@code row}, whose columns are {@link #selectList()}.
     *
     * @throws EncodingException if a value has no canonical encoding (the message names table and column)
     */
    public EncodedRow encode(ResultSet row) throws SQLException {
        return EncodedRow.complete(RowJson.ofUtf8(rowUtf8(row)), KeyValues.ofUtf8(keyUtf8(row)));
    }

    /** The canonical row JSON of the current row of {@code row}. */
    public String rowJson(ResultSet row) throws SQLException {
        return new String(rowUtf8(row), StandardCharsets.UTF_8);
    }

    /** The canonical key values JSON array of the current row of {@code row}. */
    public String keyJson(ResultSet row) throws SQLException {
        return new String(keyUtf8(row), StandardCharsets.UTF_8);
    }

    private byte[] rowUtf8(ResultSet row) throws SQLException {
        int column = 0;
        try {
            JsonGenerator out = rowWriter.generator();
            out.writeStartObject();
            for (; column < writers.length; column++) {
                out.writeFieldName(names[column]);
                writers[column].write(row, column + 1, out);
            }
            out.writeEndObject();
            return rowWriter.takeUtf8();
        } catch (UnencodableValueException | ArithmeticException | ClassCastException | NumberFormatException e) {
            rowWriter.discard();
            throw failure(column, e);
        } catch (IOException e) {
            rowWriter.discard();
            throw new UncheckedIOException(e);
        } catch (SQLException | RuntimeException e) {
            rowWriter.discard();
            throw e;
        }
    }

    private byte[] keyUtf8(ResultSet row) throws SQLException {
        int column = keyPositions[0];
        try {
            JsonGenerator out = keyWriter.generator();
            out.writeStartArray();
            for (int position : keyPositions) {
                column = position;
                writers[position].write(row, position + 1, out);
            }
            out.writeEndArray();
            return keyWriter.takeUtf8();
        } catch (UnencodableValueException | ArithmeticException | ClassCastException | NumberFormatException e) {
            keyWriter.discard();
            throw failure(column, e);
        } catch (IOException e) {
            keyWriter.discard();
            throw new UncheckedIOException(e);
        } catch (SQLException | RuntimeException e) {
            keyWriter.discard();
            throw e;
        }
    }

    private EncodingException failure(int column, RuntimeException e) {
        return new EncodingException(table.table(), table.columns().get(column).name(), e.getMessage(), e);
    }
}
