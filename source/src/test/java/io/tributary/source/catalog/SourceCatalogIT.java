package io.tributary.source.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.messages.TableId;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

@RealServices
class SourceCatalogIT {

    private interface CatalogCall<T> {
        T call(SourceCatalog catalog) throws SQLException;
    }

    private static <T> T withCatalog(PostgresDatabase db, CatalogCall<T> call) throws SQLException {
        try (Connection c = db.connect()) {
            return call.call(new SourceCatalog(c));
        }
    }

    @Test
    void listsTablesOfTheGivenSchemasOnly(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        db.execute("CREATE SCHEMA tenant_a", "CREATE SCHEMA \"Tenant B\"", "CREATE SCHEMA other",
            "CREATE TABLE tenant_a.orders (id int PRIMARY KEY)", "CREATE TABLE tenant_a.items (id int PRIMARY KEY)",
            "CREATE TABLE \"Tenant B\".\"My Orders\" (id int PRIMARY KEY)",
            "CREATE TABLE other.orders (id int PRIMARY KEY)",
            "CREATE VIEW tenant_a.orders_view AS SELECT * FROM tenant_a.orders");

        List<TableId> tables = withCatalog(db, c -> c.listTables(List.of("tenant_a", "Tenant B")));

        assertThat(tables).containsExactly(TableId.of("Tenant B", "My Orders"), TableId.of("tenant_a", "items"),
            TableId.of("tenant_a", "orders"));
    }

    @Test
    void partitionedTableIsListedOnceByItsRoot(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        db.execute("CREATE TABLE public.events (id int, at date, PRIMARY KEY (id, at)) PARTITION BY RANGE (at)",
            "CREATE TABLE public.events_2024 PARTITION OF public.events FOR VALUES FROM ('2024-01-01')"
                + " TO ('2025-01-01')",
            "CREATE TABLE public.events_2025 PARTITION OF public.events FOR VALUES FROM ('2025-01-01')"
                + " TO ('2026-01-01')");

        assertThat(withCatalog(db, SourceCatalog::listAllUserTables)).containsExactly(TableId.of("public", "events"));
    }

    @Test
    void allUserTablesLeaveSystemSchemasOut(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        db.execute("CREATE SCHEMA s1", "CREATE TABLE s1.t (id int PRIMARY KEY)",
            "CREATE TABLE public.u (id int PRIMARY KEY)");

        assertThat(withCatalog(db, SourceCatalog::listAllUserTables))
            .containsExactly(TableId.of("public", "u"), TableId.of("s1", "t"));
    }

    @Test
    void columnsComeInOrdinalOrderWithTheirTypes(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        db.execute("CREATE TYPE mood AS ENUM ('sad', 'ok')",
            "CREATE TABLE public.t (id bigint PRIMARY KEY, gone int, \"Name\" varchar(20) NOT NULL, tags text[],"
                + " m mood, moods mood[], amount numeric(10,2), doubled bigint GENERATED ALWAYS AS (id * 2) STORED)",
            "ALTER TABLE public.t DROP COLUMN gone");

        TableSchema schema = withCatalog(db, c -> c.describe(TableId.of("public", "t")));

        assertThat(schema.columns()).extracting(SourceColumn::name)
            .containsExactly("id", "Name", "tags", "m", "moods", "amount");
        assertThat(schema.columns()).extracting(SourceColumn::ordinal).containsExactly(1, 3, 4, 5, 6, 7);
        SourceColumn name = schema.column("Name").orElseThrow();
        assertThat(name.type()).isEqualTo(ColumnType.VARCHAR);
        assertThat(name.formattedType()).isEqualTo("character varying(20)");
        assertThat(name.typeOid()).isEqualTo(1043);
        assertThat(name.notNull()).isTrue();
        SourceColumn tags = schema.column("tags").orElseThrow();
        assertThat(tags.array()).isTrue();
        assertThat(tags.type()).isEqualTo(ColumnType.TEXT);
        assertThat(tags.typeName()).isEqualTo("_text");
        assertThat(tags.elementTypeName()).contains("text");
        assertThat(tags.elementTypeOid()).isEqualTo(25);
        assertThat(schema.column("m").orElseThrow().enumType()).isTrue();
        assertThat(schema.column("moods").orElseThrow()).matches(c -> c.array() && c.enumType());
        assertThat(schema.column("doubled")).isEmpty();
    }

    @Test
    void compositePrimaryKeyIsInKeyOrder(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        db.execute("CREATE TABLE public.t (a int, b text, c int, PRIMARY KEY (b, a))");

        TableSchema schema = withCatalog(db, c -> c.describe(TableId.of("public", "t")));

        assertThat(schema.keyColumns()).containsExactly("b", "a");
        assertThat(schema.keySource()).isEqualTo(KeySource.PRIMARY_KEY);
        assertThat(schema.keyColumnPositions()).containsExactly(1, 0);
        assertThat(schema.replicaIdentity()).isEqualTo(ReplicaIdentity.DEFAULT);
        assertThat(schema.deletesCarryKey()).isTrue();
    }

    @Test
    void replicaIdentityFullIsReported(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        db.execute("CREATE TABLE public.t (id int PRIMARY KEY)", "ALTER TABLE public.t REPLICA IDENTITY FULL");

        assertThat(withCatalog(db, c -> c.describe(TableId.of("public", "t"))).replicaIdentity())
            .isEqualTo(ReplicaIdentity.FULL);
    }

    @Test
    void replicaIdentityIndexServesAsTheKeyOfATableWithoutPrimaryKey(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        db.execute("CREATE TABLE public.t (code text NOT NULL, region int NOT NULL, v int)",
            "CREATE UNIQUE INDEX t_code_region ON public.t (region, code)",
            "ALTER TABLE public.t REPLICA IDENTITY USING INDEX t_code_region");

        TableSchema schema = withCatalog(db, c -> c.describe(TableId.of("public", "t")));

        assertThat(schema.keyColumns()).containsExactly("region", "code");
        assertThat(schema.keySource()).isEqualTo(KeySource.REPLICA_IDENTITY_INDEX);
        assertThat(schema.replicaIdentity()).isEqualTo(ReplicaIdentity.INDEX);
    }

    @Test
    void tableWithoutPrimaryKeyIsRefusedWithTheFix(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        db.execute("CREATE SCHEMA \"Shop\"", "CREATE TABLE \"Shop\".\"Orders\" (id int, note text)");

        assertThatThrownBy(() -> withCatalog(db, c -> c.describe(TableId.of("Shop", "Orders"))))
            .isInstanceOf(MissingPrimaryKeyException.class)
            .hasMessageContaining("\"Shop\".\"Orders\"")
            .hasMessageContaining("ALTER TABLE \"Shop\".\"Orders\" ADD PRIMARY KEY (")
            .hasMessageContaining("REPLICA IDENTITY USING INDEX");
    }

    @Test
    void unsupportedColumnTypeIsRefusedNamingTableColumnTypeAndWhatIsSupported(TestServices services)
        throws Exception {
        PostgresDatabase db = services.newDatabase();
        db.execute("CREATE TABLE public.prices (id int PRIMARY KEY, price money)");

        assertThatThrownBy(() -> withCatalog(db, c -> c.describe(TableId.of("public", "prices"))))
            .isInstanceOfSatisfying(UnsupportedColumnTypeException.class, e -> {
                assertThat(e.table()).isEqualTo(TableId.of("public", "prices"));
                assertThat(e.column()).isEqualTo("price");
                assertThat(e.columnType()).isEqualTo("money");
            })
            .hasMessageContaining("\"public\".\"prices\"").hasMessageContaining("\"price\"")
            .hasMessageContaining("money").hasMessageContaining("Supported: boolean, smallint");
    }

    @Test
    void arraysOfTypesDebeziumDropsAreRefused(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        db.execute("CREATE TABLE public.t (id int PRIMARY KEY, slots time[])");

        assertThatThrownBy(() -> withCatalog(db, c -> c.describe(TableId.of("public", "t"))))
            .isInstanceOf(UnsupportedColumnTypeException.class).hasMessageContaining("time without time zone[]");
    }

    @Test
    void rangesGeometryAndDomainsAreRefused(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        db.execute("CREATE DOMAIN positive AS int CHECK (VALUE > 0)",
            "CREATE TABLE public.r (id int PRIMARY KEY, during int4range)",
            "CREATE TABLE public.g (id int PRIMARY KEY, at point)",
            "CREATE TABLE public.d (id int PRIMARY KEY, qty positive)");

        for (String table : List.of("r", "g", "d")) {
            assertThatThrownBy(() -> withCatalog(db, c -> c.describe(TableId.of("public", table))))
                .isInstanceOf(UnsupportedColumnTypeException.class);
        }
    }

    @Test
    void declaredMultiDimensionalArrayIsRefused(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        db.execute("CREATE TABLE public.t (id int PRIMARY KEY, grid int[][])");

        assertThatThrownBy(() -> withCatalog(db, c -> c.describe(TableId.of("public", "t"))))
            .isInstanceOf(UnsupportedColumnTypeException.class).hasMessageContaining("one-dimensional");
    }

    @Test
    void missingTableIsAClearError(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();

        assertThatThrownBy(() -> withCatalog(db, c -> c.describe(TableId.of("public", "nope"))))
            .isInstanceOf(TableNotFoundException.class).hasMessage("Source table \"public\".\"nope\" does not exist");
    }

    @Test
    void viewIsNotATable(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        db.execute("CREATE VIEW public.v AS SELECT 1 AS id");

        assertThatThrownBy(() -> withCatalog(db, c -> c.describe(TableId.of("public", "v"))))
            .isInstanceOf(TableNotFoundException.class).hasMessageContaining("is not a table");
    }

    @Test
    void estimatedRowsComeFromReltuplesAfterAnalyze(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        db.execute("CREATE TABLE public.t (id int PRIMARY KEY)");
        TableId t = TableId.of("public", "t");

        db.execute("INSERT INTO public.t SELECT g FROM generate_series(1, 5000) g", "ANALYZE public.t");

        assertThat(withCatalog(db, c -> c.describe(t)).estimatedRows()).hasValue(5000);
    }

    @Test
    void neverAnalyzedTableHasNoEstimate(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        db.execute("CREATE TABLE public.t (id int)", "INSERT INTO public.t VALUES (1)");

        OptionalLong estimate = withCatalog(db, c -> c.estimatedRows(TableId.of("public", "t")));

        assertThat(estimate).isEmpty();
    }

    @Test
    void estimatedRowsOfAPartitionedTableSumItsPartitions(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        db.execute("CREATE TABLE public.e (id int PRIMARY KEY) PARTITION BY RANGE (id)",
            "CREATE TABLE public.e1 PARTITION OF public.e FOR VALUES FROM (0) TO (1000)",
            "CREATE TABLE public.e2 PARTITION OF public.e FOR VALUES FROM (1000) TO (3000)",
            "INSERT INTO public.e SELECT g FROM generate_series(0, 2999) g", "ANALYZE public.e");

        OptionalLong estimate = withCatalog(db, c -> c.estimatedRows(TableId.of("public", "e")));

        assertThat(estimate).hasValue(3000);
    }

    @Test
    void citextIsRecognizedByName(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        db.execute("CREATE EXTENSION IF NOT EXISTS citext", "CREATE TABLE public.t (email citext PRIMARY KEY)");

        Optional<SourceColumn> email = withCatalog(db, c -> c.describe(TableId.of("public", "t"))).column("email");

        assertThat(email.orElseThrow().type()).isEqualTo(ColumnType.CITEXT);
    }

    @Test
    void describeAllGivesEachTableWhatDescribeGivesIt(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        db.execute("CREATE SCHEMA s",
            "CREATE TABLE s.plain (id bigint PRIMARY KEY, name text, n int)",
            "CREATE TABLE s.composite (a int, b text, v jsonb, PRIMARY KEY (b, a))",
            "CREATE TABLE s.nokey (id int)",
            "CREATE TABLE s.odd (id int PRIMARY KEY, r int4range)",
            "CREATE TABLE s.e (id int PRIMARY KEY) PARTITION BY RANGE (id)",
            "CREATE TABLE s.e1 PARTITION OF s.e FOR VALUES FROM (0) TO (1000)",
            "CREATE VIEW s.v AS SELECT 1 AS id",
            "INSERT INTO s.plain SELECT g, 'n' || g, g FROM generate_series(1, 300) g",
            "INSERT INTO s.e SELECT g FROM generate_series(0, 99) g", "ANALYZE s.plain", "ANALYZE s.e");
        List<TableId> tables = List.of(TableId.of("s", "plain"), TableId.of("s", "missing"),
            TableId.of("s", "composite"), TableId.of("s", "nokey"), TableId.of("s", "odd"), TableId.of("s", "e"),
            TableId.of("s", "v"), TableId.of("s", "plain"));

        java.util.Map<TableId, TableDescription> all = withCatalog(db, c -> c.describeAll(tables));

        assertThat(all.keySet()).containsExactly(TableId.of("s", "plain"), TableId.of("s", "missing"),
            TableId.of("s", "composite"), TableId.of("s", "nokey"), TableId.of("s", "odd"), TableId.of("s", "e"),
            TableId.of("s", "v"));
        for (TableId table : all.keySet()) {
            Object alone;
            try {
                alone = withCatalog(db, c -> c.describe(table));
            } catch (SourceSchemaException e) {
                alone = e.getClass().getName() + ": " + e.getMessage();
            }
            TableDescription batched = all.get(table);
            Object fromBatch = batched.problem().<Object>map(e -> e.getClass().getName() + ": " + e.getMessage())
                .orElseGet(batched::schema);
            assertThat(fromBatch).as(table.quoted()).isEqualTo(alone);
        }
        assertThat(all.get(TableId.of("s", "plain")).schema().estimatedRows()).hasValue(300);
        assertThat(all.get(TableId.of("s", "e")).schema().estimatedRows()).hasValue(100);
        assertThat(all.get(TableId.of("s", "composite")).schema().keyColumns()).containsExactly("b", "a");
        assertThat(all.get(TableId.of("s", "nokey")).problem()).containsInstanceOf(MissingPrimaryKeyException.class);
        assertThat(all.get(TableId.of("s", "odd")).problem())
            .containsInstanceOf(UnsupportedColumnTypeException.class);
        assertThat(all.get(TableId.of("s", "missing")).problem()).containsInstanceOf(TableNotFoundException.class);
        assertThat(all.get(TableId.of("s", "v")).problem()).containsInstanceOf(TableNotFoundException.class);
    }

    @Test
    void describeAllOfNoTablesIsEmpty(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();

        java.util.Map<TableId, TableDescription> none = withCatalog(db, c -> c.describeAll(List.of()));

        assertThat(none).isEmpty();
    }
}
