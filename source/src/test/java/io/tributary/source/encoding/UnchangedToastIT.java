package io.tributary.source.encoding;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.source.catalog.SourceCatalog;
import io.tributary.source.catalog.TableSchema;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.testing.random.Seeds;
import io.tributary.topics.messages.TableId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

/**
 * Unchanged TOASTed values of an UPDATE (incompressible values over 2 kB, left alone by the update) are not in
 * the WAL; Debezium marks them with its placeholder (or NULL). The Connect encoder must never encode those.
 */
@RealServices
class UnchangedToastIT {

    /** The values Postgres moves out of line; the 8000-digit numeric (4 kB) stays in the tuple. */
    private static final List<String> BIG_COLUMNS = List.of("big_text", "big_varchar", "big_bytea", "big_jsonb",
        "big_int4s", "big_int8s", "big_texts", "big_float8s");

    @Test
    void unchangedToastedColumnsAreReportedUnavailableNeverEncoded(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        String name = services.uniqueName("toasted");
        TableSchema schema = createAndDescribe(db, name, "DEFAULT");
        try (DebeziumCapture capture = DebeziumCapture.start(db, services.uniqueName("toast_engine"),
            "public." + name, DebeziumDecodingSettings.properties())) {
            insertBigRowThenUpdateSmallColumn(db, name);
            List<SourceRecord> records = capture.awaitRecords(2, Duration.ofSeconds(60));
            Struct after = ((Struct) records.get(1).value()).getStruct("after");
            ConnectRowEncoder encoder = ConnectRowEncoder.forTable(schema, after.schema());

            EncodedRow update = encoder.encode(after, RowImage.UPDATE_NEW_TUPLE);

            assertThat(update.isComplete()).isFalse();
            assertThat(update.unavailableColumns()).containsExactlyInAnyOrderElementsOf(BIG_COLUMNS);
            assertThat(update.key().json()).isEqualTo("[1]");
        }
    }

    @Test
    void placeholdersAreDetectedEvenWhenTheImageClaimsToBeComplete(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        String name = services.uniqueName("toasted");
        TableSchema schema = createAndDescribe(db, name, "DEFAULT");
        try (DebeziumCapture capture = DebeziumCapture.start(db, services.uniqueName("toast_engine"),
            "public." + name, DebeziumDecodingSettings.properties())) {
            insertBigRowThenUpdateSmallColumn(db, name);
            Struct after = ((Struct) capture.awaitRecords(2, Duration.ofSeconds(60)).get(1).value())
                .getStruct("after");

            EncodedRow update = ConnectRowEncoder.forTable(schema, after.schema()).encode(after, RowImage.COMPLETE);

            assertThat(update.isComplete()).isFalse();
            assertThat(update.unavailableColumns()).containsAll(Set.of("big_text", "big_varchar", "big_bytea",
                "big_jsonb", "big_int4s", "big_int8s", "big_texts"));
        }
    }

    @Test
    void replicaIdentityFullUpdatesCarryEveryValueAndMatchJdbc(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        String name = services.uniqueName("toasted_full");
        TableSchema schema = createAndDescribe(db, name, "FULL");
        try (DebeziumCapture capture = DebeziumCapture.start(db, services.uniqueName("toast_engine"),
            "public." + name, DebeziumDecodingSettings.properties())) {
            insertBigRowThenUpdateSmallColumn(db, name);
            Struct after = ((Struct) capture.awaitRecords(2, Duration.ofSeconds(60)).get(1).value())
                .getStruct("after");

            EncodedRow update = ConnectRowEncoder.forTable(schema, after.schema()).encode(after, RowImage.COMPLETE);

            assertThat(update.unavailableColumns()).isEmpty();
            assertThat(update.row().orElseThrow().json()).isEqualTo(jdbcRow(db, schema))
                .doesNotContain(DebeziumDecodingSettings.UNAVAILABLE_VALUE_PLACEHOLDER);
        }
    }

    /** {@code numeric} is stored compressed in line when it can be; {@code STORAGE EXTERNAL} forces it out. */
    @Test
    void unchangedToastedNumericIsReportedUnavailable(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        String name = services.uniqueName("toasted_numeric");
        db.execute("CREATE TABLE public." + name + " (id int PRIMARY KEY, small int, big_numeric numeric)",
            "ALTER TABLE public." + name + " ALTER COLUMN big_numeric SET STORAGE EXTERNAL");
        TableSchema schema;
        try (Connection c = db.connect()) {
            schema = new SourceCatalog(c).describe(TableId.of("public", name));
        }
        try (DebeziumCapture capture = DebeziumCapture.start(db, services.uniqueName("toast_engine"),
            "public." + name, DebeziumDecodingSettings.properties())) {
            StringBuilder digits = new StringBuilder("7");
            Random random = new Random(Seeds.fromProperty("tributary.seed"));
            for (int i = 0; i < 12000; i++) {
                digits.append(random.nextInt(10));
            }
            db.execute("INSERT INTO public." + name + " VALUES (1, 0, " + digits + ")",
                "UPDATE public." + name + " SET small = 1");
            Struct after = ((Struct) capture.awaitRecords(2, Duration.ofSeconds(60)).get(1).value())
                .getStruct("after");

            EncodedRow update = ConnectRowEncoder.forTable(schema, after.schema())
                .encode(after, RowImage.UPDATE_NEW_TUPLE);

            assertThat(update.unavailableColumns()).containsExactly("big_numeric");
        }
    }

    private static TableSchema createAndDescribe(PostgresDatabase db, String name, String replicaIdentity)
        throws Exception {
        db.execute("CREATE TABLE public." + name + " (id int PRIMARY KEY, small int, big_text text,"
            + " big_varchar varchar, big_bytea bytea, big_jsonb jsonb, big_numeric numeric, big_int4s int[],"
            + " big_int8s bigint[], big_texts text[], big_float8s float8[])",
            "ALTER TABLE public." + name + " REPLICA IDENTITY " + replicaIdentity);
        try (Connection c = db.connect()) {
            return new SourceCatalog(c).describe(TableId.of("public", name));
        }
    }

    private static void insertBigRowThenUpdateSmallColumn(PostgresDatabase db, String name) throws Exception {
        Random random = new Random(Seeds.fromProperty("tributary.seed"));
        byte[] bytes = new byte[6000];
        random.nextBytes(bytes);
        String text = Base64.getEncoder().encodeToString(bytes);
        StringBuilder digits = new StringBuilder("1");
        StringBuilder int4s = new StringBuilder("{");
        StringBuilder int8s = new StringBuilder("{");
        StringBuilder texts = new StringBuilder("{");
        StringBuilder float8s = new StringBuilder("{");
        for (int i = 0; i < 8000; i++) {
            digits.append(random.nextInt(10));
        }
        for (int i = 0; i < 1500; i++) {
            String sep = i == 0 ? "" : ",";
            int4s.append(sep).append(random.nextInt());
            int8s.append(sep).append(random.nextLong());
            float8s.append(sep).append(random.nextDouble());
            if (i < 200) {
                texts.append(sep).append('"').append(text, i * 30, i * 30 + 30).append('"');
            }
        }
        try (Connection c = db.connect(); PreparedStatement s = c.prepareStatement("INSERT INTO public." + name
            + " VALUES (1, 0, ?, ?, ?, CAST(? AS jsonb), CAST(? AS numeric), CAST(? AS int[]),"
            + " CAST(? AS bigint[]), CAST(? AS text[]), CAST(? AS float8[]))")) {
            s.setString(1, text);
            s.setString(2, new StringBuilder(text).reverse().toString());
            s.setBytes(3, bytes);
            s.setString(4, "{\"k\": \"" + text + "\"}");
            s.setString(5, digits.toString());
            s.setString(6, int4s.append('}').toString());
            s.setString(7, int8s.append('}').toString());
            s.setString(8, texts.append('}').toString());
            s.setString(9, float8s.append('}').toString());
            s.executeUpdate();
        }
        db.execute("UPDATE public." + name + " SET small = small + 1 WHERE id = 1");
    }

    private static String jdbcRow(PostgresDatabase db, TableSchema schema) throws Exception {
        JdbcRowEncoder encoder = JdbcRowEncoder.forTable(schema);
        try (Connection c = db.connect(); PreparedStatement s = c.prepareStatement(
            "SELECT " + encoder.selectList() + " FROM " + schema.table().quoted());
             ResultSet rs = s.executeQuery()) {
            assertThat(rs.next()).isTrue();
            return encoder.rowJson(rs);
        }
    }
}
