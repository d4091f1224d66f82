package io.tributary.source.encoding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.source.catalog.SourceCatalog;
import io.tributary.source.catalog.TableSchema;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.messages.TableId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

/**
 * Values outside the canonical encoding fail with a clear {@link EncodingException} naming table and column,
 * instead of being encoded differently on the two paths.
 */
@RealServices
class EncodingLimitsIT {

    private static TableSchema table(PostgresDatabase db, String ddl) throws Exception {
        db.execute(ddl);
        try (Connection c = db.connect()) {
            return new SourceCatalog(c).describe(TableId.of("public", "t"));
        }
    }

    private static String readFirstRow(PostgresDatabase db, TableSchema schema) throws Exception {
        JdbcRowEncoder encoder = JdbcRowEncoder.forTable(schema);
        try (Connection c = db.connect(); PreparedStatement s = c.prepareStatement(
            "SELECT " + encoder.selectList() + " FROM " + schema.table().quoted() + " ORDER BY id");
             ResultSet rs = s.executeQuery()) {
            assertThat(rs.next()).isTrue();
            return encoder.encode(rs).row().orElseThrow().json();
        }
    }

    @Test
    void nanInsideANumericArrayIsRejectedOnTheSnapshotPath(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        TableSchema schema = table(db, "CREATE TABLE public.t (id int PRIMARY KEY, amounts numeric[])");
        db.execute("INSERT INTO public.t VALUES (1, '{1.5,NaN}')");

        assertThatThrownBy(() -> readFirstRow(db, schema)).isInstanceOf(EncodingException.class)
            .hasMessageContaining("\"amounts\"").hasMessageContaining("\"public\".\"t\"")
            .hasMessageContaining("NaN inside a numeric array");
    }

    @Test
    void infinityInsideADateArrayIsRejectedOnTheSnapshotPath(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        TableSchema schema = table(db, "CREATE TABLE public.t (id int PRIMARY KEY, days date[])");
        db.execute("INSERT INTO public.t VALUES (1, '{2020-01-01,infinity}')");

        assertThatThrownBy(() -> readFirstRow(db, schema)).isInstanceOf(EncodingException.class)
            .hasMessageContaining("\"days\"").hasMessageContaining("infinity inside");
    }

    @Test
    void nullInsideAnEnumArrayIsRejectedOnTheSnapshotPath(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        db.execute("CREATE TYPE mood AS ENUM ('sad', 'ok')");
        TableSchema schema = table(db, "CREATE TABLE public.t (id int PRIMARY KEY, moods mood[])");
        db.execute("INSERT INTO public.t VALUES (1, '{sad,NULL}')");

        assertThatThrownBy(() -> readFirstRow(db, schema)).isInstanceOf(EncodingException.class)
            .hasMessageContaining("\"moods\"").hasMessageContaining("NULL inside an enum array");
    }

    @Test
    void multiDimensionalValueInAnArrayColumnIsRejectedOnTheSnapshotPath(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        TableSchema schema = table(db, "CREATE TABLE public.t (id int PRIMARY KEY, grid int[])");
        db.execute("INSERT INTO public.t VALUES (1, '{{1,2},{3,4}}')");

        assertThatThrownBy(() -> readFirstRow(db, schema)).isInstanceOf(EncodingException.class)
            .hasMessageContaining("\"grid\"").hasMessageContaining("multi-dimensional");
    }

    @Test
    void arrayWithLowerBoundOtherThanOneIsEncodedAsItsElements(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        TableSchema schema = table(db, "CREATE TABLE public.t (id int PRIMARY KEY, xs int[])");
        db.execute("INSERT INTO public.t VALUES (1, '[0:2]={7,8,9}')");

        assertThat(readFirstRow(db, schema)).isEqualTo("{\"id\":1,\"xs\":[7,8,9]}");
    }

    @Test
    void bcDateIsRejectedOnTheSnapshotPath(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        TableSchema schema = table(db, "CREATE TABLE public.t (id int PRIMARY KEY, born date)");
        db.execute("INSERT INTO public.t VALUES (1, '0044-03-15 BC')");

        assertThatThrownBy(() -> readFirstRow(db, schema)).isInstanceOf(EncodingException.class)
            .hasMessageContaining("\"born\"").hasMessageContaining("0001-9999");
    }

    @Test
    void yearAfterNineThousandNineHundredNinetyNineIsRejectedOnBothPaths(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        TableSchema schema = table(db, "CREATE TABLE public.t (id int PRIMARY KEY, at timestamp)");
        try (DebeziumCapture capture = DebeziumCapture.start(db, services.uniqueName("limits"), "public.t",
            DebeziumDecodingSettings.properties())) {
            db.execute("INSERT INTO public.t VALUES (1, '10000-01-01 00:00:00')");
            Struct after = ((Struct) capture.awaitRecords(1, Duration.ofSeconds(60)).get(0).value())
                .getStruct("after");
            ConnectRowEncoder wal = ConnectRowEncoder.forTable(schema, after.schema());

            assertThatThrownBy(() -> wal.encode(after, RowImage.COMPLETE)).isInstanceOf(EncodingException.class)
                .hasMessageContaining("\"at\"").hasMessageContaining("0001-9999");
            assertThatThrownBy(() -> readFirstRow(db, schema)).isInstanceOf(EncodingException.class)
                .hasMessageContaining("\"at\"").hasMessageContaining("0001-9999");
        }
    }
}
