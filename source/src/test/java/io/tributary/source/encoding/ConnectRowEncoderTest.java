package io.tributary.source.encoding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.source.catalog.ColumnType;
import io.tributary.source.catalog.SourceColumn;
import io.tributary.source.catalog.TableSchema;
import io.tributary.topics.messages.TableId;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

/** The Connect encoder on structs shaped the way Debezium 3.6 builds them (checked for real by the ITs). */
class ConnectRowEncoderTest {

    private static final TableId TABLE = TableId.of("public", "t");
    private static final String PLACEHOLDER = DebeziumDecodingSettings.UNAVAILABLE_VALUE_PLACEHOLDER;

    private static final TableSchema SCHEMA = TableSchema.of(TABLE, List.of(
        SourceColumn.scalar("id", 1, ColumnType.INT8),
        SourceColumn.scalar("name", 2, ColumnType.TEXT),
        SourceColumn.scalar("price", 3, ColumnType.NUMERIC),
        SourceColumn.scalar("at", 4, ColumnType.TIMESTAMP),
        SourceColumn.scalar("blob", 5, ColumnType.BYTEA),
        SourceColumn.arrayOf("tags", 6, ColumnType.TEXT),
        SourceColumn.arrayOf("ids", 7, ColumnType.INT4),
        SourceColumn.arrayOf("scores", 8, ColumnType.FLOAT8)), List.of("id"));

    private static final Schema ROW = SchemaBuilder.struct()
        .field("id", Schema.INT64_SCHEMA)
        .field("name", Schema.OPTIONAL_STRING_SCHEMA)
        .field("price", Schema.OPTIONAL_STRING_SCHEMA)
        .field("at", SchemaBuilder.int64().name("io.debezium.time.MicroTimestamp").optional().build())
        .field("blob", Schema.OPTIONAL_BYTES_SCHEMA)
        .field("tags", SchemaBuilder.array(Schema.OPTIONAL_STRING_SCHEMA).optional().build())
        .field("ids", SchemaBuilder.array(Schema.OPTIONAL_INT32_SCHEMA).optional().build())
        .field("scores", SchemaBuilder.array(Schema.OPTIONAL_FLOAT64_SCHEMA).optional().build())
        .build();

    private static Struct row() {
        return new Struct(ROW).put("id", 42L).put("name", "a\"b😀").put("price", "1.50")
            .put("at", 1_500_000L).put("blob", ByteBuffer.wrap(new byte[] {0, (byte) 0xab}))
            .put("tags", List.of("x")).put("ids", List.of(1, 2)).put("scores", List.of(0.1, Double.NaN));
    }

    @Test
    void completeRowIsEncodedInCatalogOrder() {
        EncodedRow encoded = ConnectRowEncoder.forTable(SCHEMA, ROW).encode(row(), RowImage.COMPLETE);

        assertThat(encoded.row().orElseThrow().json()).isEqualTo("{\"id\":42,\"name\":\"a\\\"b😀\",\"price\":\"1.50\","
            + "\"at\":\"1970-01-01T00:00:01.500000\",\"blob\":\"\\\\x00ab\",\"tags\":[\"x\"],\"ids\":[1,2],"
            + "\"scores\":[0.1,\"NaN\"]}");
        assertThat(encoded.key().json()).isEqualTo("[42]");
    }

    @Test
    void numericSpecialsUseTheCanonicalSpelling() {
        Struct row = row().put("price", "NEGATIVE_INFINITY");

        String json = ConnectRowEncoder.forTable(SCHEMA, ROW).encode(row, RowImage.COMPLETE).row().orElseThrow().json();

        assertThat(json).contains("\"price\":\"-Infinity\"");
    }

    @Test
    void timestampInfinitySentinelIsInfinity() {
        Struct row = row().put("at", 9223372036825200000L);

        String json = ConnectRowEncoder.forTable(SCHEMA, ROW).encode(row, RowImage.COMPLETE).row().orElseThrow().json();

        assertThat(json).contains("\"at\":\"infinity\"");
    }

    @Test
    void placeholderStringMakesTheRowIncomplete() {
        EncodedRow encoded = ConnectRowEncoder.forTable(SCHEMA, ROW)
            .encode(row().put("name", PLACEHOLDER), RowImage.UPDATE_NEW_TUPLE);

        assertThat(encoded.isComplete()).isFalse();
        assertThat(encoded.row()).isEmpty();
        assertThat(encoded.unavailableColumns()).containsExactly("name");
        assertThat(encoded.key().json()).isEqualTo("[42]");
    }

    @Test
    void placeholderBytesAndArraysAreRecognized() {
        List<Integer> placeholderInts = new ArrayList<>();
        for (byte b : PLACEHOLDER.getBytes(StandardCharsets.US_ASCII)) {
            placeholderInts.add((int) b);
        }
        Struct row = row().put("blob", PLACEHOLDER.getBytes(StandardCharsets.US_ASCII))
            .put("tags", List.of(PLACEHOLDER)).put("ids", placeholderInts);

        EncodedRow encoded = ConnectRowEncoder.forTable(SCHEMA, ROW).encode(row, RowImage.COMPLETE);

        assertThat(encoded.unavailableColumns()).containsExactlyInAnyOrder("blob", "tags", "ids");
    }

    @Test
    void nullArrayWithoutPlaceholderMayBeUnavailableOnlyInANewTupleOfAnUpdate() {
        ConnectRowEncoder encoder = ConnectRowEncoder.forTable(SCHEMA, ROW);
        Struct row = row().put("scores", null).put("tags", null);

        assertThat(encoder.encode(row, RowImage.UPDATE_NEW_TUPLE).unavailableColumns()).containsExactly("scores");
        assertThat(encoder.encode(row, RowImage.COMPLETE).row().orElseThrow().json())
            .contains("\"tags\":null").contains("\"scores\":null");
    }

    @Test
    void keyIsReadByNameFromDebeziumsKeyStruct() {
        Schema keySchema = SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA).build();

        String key = ConnectRowEncoder.forTable(SCHEMA, ROW).keyValues(new Struct(keySchema).put("id", -7L)).json();

        assertThat(key).isEqualTo("[-7]");
    }

    @Test
    void missingKeyValueIsAnEncodingError() {
        Schema keySchema = SchemaBuilder.struct().field("other", Schema.INT64_SCHEMA).build();
        ConnectRowEncoder encoder = ConnectRowEncoder.forTable(SCHEMA, ROW);

        assertThatThrownBy(() -> encoder.keyValues(new Struct(keySchema).put("other", 1L)))
            .isInstanceOf(EncodingException.class).hasMessageContaining("\"id\"");
    }

    @Test
    void connectorWithoutTheDecodingSettingsIsRefused() {
        Schema precise = SchemaBuilder.struct()
            .field("id", Schema.INT64_SCHEMA)
            .field("name", Schema.OPTIONAL_STRING_SCHEMA)
            .field("price", Decimal.builder(2).optional().build())
            .build();
        TableSchema table = TableSchema.of(TABLE, SCHEMA.columns().subList(0, 3), List.of("id"));

        assertThatThrownBy(() -> ConnectRowEncoder.forTable(table, precise))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"price\"")
            .hasMessageContaining("DebeziumDecodingSettings");
    }

    @Test
    void columnMissingFromTheConnectSchemaIsRefused() {
        Schema partial = SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA).build();

        assertThatThrownBy(() -> ConnectRowEncoder.forTable(SCHEMA, partial))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"name\"");
    }

    @Test
    void rowOfAnotherSchemaIsRefused() {
        ConnectRowEncoder encoder = ConnectRowEncoder.forTable(SCHEMA, ROW);
        Schema other = SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA).build();

        assertThat(encoder.accepts(other)).isFalse();
        assertThatThrownBy(() -> encoder.encode(new Struct(other).put("id", 1L), RowImage.COMPLETE))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void encoderRecoversAfterAFailedRow() {
        ConnectRowEncoder encoder = ConnectRowEncoder.forTable(SCHEMA, ROW);
        assertThatThrownBy(() -> encoder.encode(row().put("price", "12x"), RowImage.COMPLETE))
            .isInstanceOf(EncodingException.class).hasMessageContaining("\"price\"");

        assertThat(encoder.encode(row(), RowImage.COMPLETE).row().orElseThrow().json()).startsWith("{\"id\":42,");
    }
}
