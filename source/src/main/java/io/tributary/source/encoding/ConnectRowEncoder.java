package io.tributary.source.encoding;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import io.tributary.source.catalog.SourceColumn;
import io.tributary.source.catalog.TableSchema;
import io.tributary.source.encoding.internals.ConnectValueWriter;
import io.tributary.source.encoding.internals.ConnectValueWriters;
import io.tributary.source.encoding.internals.JsonTextWriter;
import io.tributary.source.encoding.internals.UnencodableValueException;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.RowJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/**
 * Encodes rows of Debezium Postgres change events (the WAL path) into the canonical form (see the package
 * comment), byte for byte what {@link JdbcRowEncoder} produces for the same row. The connector must run with
 * {@link DebeziumDecodingSettings#properties()}.
 *
 * <p>Built for one table and one Connect row schema (the schema of the event value's {@code after} or
 * {@code before} field); construction checks that every catalog column is in the schema with the type the
 * decoding settings produce. When Debezium's schema for the table changes (a column added, a type changed),
 * {@link #accepts(Schema)} turns false and the caller builds a new encoder from a fresh {@link TableSchema}.
 *
 * <p>Never emits Debezium's placeholder for unchanged TOASTed values: such rows come back incomplete
 * ({@link EncodedRow#unavailableColumns()}).
 *
 * <p>Not thread-safe (it reuses one output buffer): use one encoder per thread.
 */
public final class ConnectRowEncoder {

    private final TableSchema table;
    private final Schema rowSchema;
    private final SerializedString[] names;
    private final Field[] fields;
    private final ConnectValueWriter[] writers;
    private final List<Predicate<Object>> placeholders;
    private final boolean[] nullMayBeUnavailable;
    private final int[] keyPositions;
    private final JsonTextWriter rowWriter = new JsonTextWriter();
    private final JsonTextWriter keyWriter = new JsonTextWriter();

    private ConnectRowEncoder(TableSchema table, Schema rowSchema) {
        this.table = table;
        this.rowSchema = rowSchema;
        List<SourceColumn> columns = table.columns();
        int n = columns.size();
        this.names = new SerializedString[n];
        this.fields = new Field[n];
        this.writers = new ConnectValueWriter[n];
        this.nullMayBeUnavailable = new boolean[n];
        Predicate<Object>[] tests = newPredicates(n);
        for (int i = 0; i < n; i++) {
            SourceColumn column = columns.get(i);
            names[i] = new SerializedString(column.name());
            fields[i] = rowSchema.field(column.name());
            if (fields[i] == null) {
                throw new IllegalArgumentException("Debezium's row schema of " + table.table().quoted()
                    + " has no field for column \"" + column.name() + "\"; fields: " + rowSchema.fields());
            }
            writers[i] = ConnectValueWriters.writer(column, fields[i].schema());
            tests[i] = UnavailableValues.placeholderOf(column);
            nullMayBeUnavailable[i] = UnavailableValues.nullMayBeUnavailable(column);
        }
        this.placeholders = List.of(tests);
        this.keyPositions = table.keyColumnPositions();
    }

    @SuppressWarnings("unchecked")
    private static Predicate<Object>[] newPredicates(int n) {
        return (Predicate<Object>[]) new Predicate<?>[n];
    }

    /**
     * An encoder for rows of {@code table} carried in structs of {@code rowSchema}.
     *
     * @throws IllegalArgumentException if a column is missing from the schema or its Connect type is not what the
     *                                  decoding settings produce
     */
    public static ConnectRowEncoder forTable(TableSchema table, Schema rowSchema) {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(rowSchema, "rowSchema");
        if (rowSchema.type() != Schema.Type.STRUCT) {
            throw new IllegalArgumentException("A row schema is a STRUCT, got " + rowSchema.type());
        }
        return new ConnectRowEncoder(table, rowSchema);
    }

    /** The table this encoder is for. */
    public TableSchema table() {
        return table;
    }

    /** Whether structs of {@code schema} can be encoded by this encoder (the same schema it was built for). */
    public boolean accepts(Schema schema) {
        return schema == rowSchema || rowSchema.equals(schema);
    }

    /**
     * Encodes a row struct ({@code after} of an insert or update, or a complete {@code before}).
     *
     * @param row   the row, of the schema this encoder was built for
     * @param image what the struct is, which decides whether a NULL may stand for an unavailable value
     * @throws EncodingException if a value has no canonical encoding (the message names table and column)
     */
    public EncodedRow encode(Struct row, RowImage image) {
        Objects.requireNonNull(image, "image");
        if (!accepts(row.schema())) {
            throw new IllegalArgumentException("Row of " + table.table().quoted() + " has a different schema than"
                + " this encoder was built for; build a new encoder");
        }
        Set<String> unavailable = null;
        int column = 0;
        try {
            JsonGenerator out = rowWriter.generator();
            out.writeStartObject();
            for (; column < writers.length; column++) {
                Object value = row.get(fields[column]);
                if (value == null) {
                    if (image == RowImage.UPDATE_NEW_TUPLE && nullMayBeUnavailable[column]) {
                        unavailable = add(unavailable, column);
                    }
                } else if (placeholders.get(column).test(value)) {
                    unavailable = add(unavailable, column);
                }
                if (unavailable != null) {
                    continue;
                }
                out.writeFieldName(names[column]);
                if (value == null) {
                    out.writeNull();
                } else {
                    writers[column].write(value, out);
                }
            }
            KeyValues key = keyValues(row);
            if (unavailable != null) {
                rowWriter.discard();
                return EncodedRow.incomplete(key, unavailable);
            }
            out.writeEndObject();
            return EncodedRow.complete(RowJson.ofUtf8(rowWriter.takeUtf8()), key);
        } catch (UnencodableValueException | ArithmeticException | ClassCastException e) {
            rowWriter.discard();
            throw failure(column, e);
        } catch (IOException e) {
            rowWriter.discard();
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            rowWriter.discard();
            throw e;
        }
    }

    private Set<String> add(Set<String> unavailable, int column) {
        Set<String> set = unavailable == null ? new LinkedHashSet<>() : unavailable;
        set.add(table.columns().get(column).name());
        return set;
    }

    /**
     * The canonical key values read from a struct holding at least the key columns: a row struct, the
     * {@code before} of a delete (which under {@code REPLICA IDENTITY DEFAULT} holds only the key), or Debezium's
     * record key. Fields are looked up by name, so any of those schemas will do.
     *
     * @throws EncodingException if a key column is missing, NULL, or has no canonical encoding
     */
    public KeyValues keyValues(Struct struct) {
        int column = keyPositions[0];
        try {
            JsonGenerator out = keyWriter.generator();
            out.writeStartArray();
            for (int position : keyPositions) {
                column = position;
                Field field = struct.schema() == rowSchema ? fields[position]
                    : struct.schema().field(table.columns().get(position).name());
                Object value = field == null ? null : struct.get(field);
                if (value == null || placeholders.get(position).test(value)) {
                    throw new UnencodableValueException("the key column is missing or NULL in the event");
                }
                writers[position].write(value, out);
            }
            out.writeEndArray();
            return KeyValues.ofUtf8(keyWriter.takeUtf8());
        } catch (UnencodableValueException | ArithmeticException | ClassCastException e) {
            keyWriter.discard();
            throw failure(column, e);
        } catch (IOException e) {
            keyWriter.discard();
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            keyWriter.discard();
            throw e;
        }
    }

    private EncodingException failure(int column, RuntimeException e) {
        return new EncodingException(table.table(), table.columns().get(column).name(), e.getMessage(), e);
    }
}
