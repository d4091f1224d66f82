package io.tributary.ingest.capture.publication;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.ingest.capture.TableSelection;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.messages.TableId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import org.junit.jupiter.api.Test;

/**
 * Each refresh sees what changed in the source's catalog or in the selection since the refresh before, whether or
 * not it reads the whole catalog again.
 */
@RealServices
class CapturedTablesIT {

    private static final TableId ORDERS = TableId.of("tenant_1", "orders");
    private static final TableId LATER = TableId.of("tenant_2", "orders");

    @Test
    void aTableCreatedAfterAnUnchangedRefreshIsCapturedAtTheNext(TestServices services) throws Exception {
        PostgresDatabase db = tenant(services);
        CapturedTables tables = new CapturedTables(publication(db), wildcard(), true);
        try (Connection c = db.connect()) {
            assertThat(settle(tables, c).captured()).containsExactly(ORDERS);

            db.execute("CREATE SCHEMA tenant_2", "CREATE TABLE tenant_2.orders (id int PRIMARY KEY, note text)");
            TableRefresh next = tables.refresh(c);

            assertThat(next.captured()).containsExactlyInAnyOrder(ORDERS, LATER);
            assertThat(next.added()).containsExactly(LATER);
            assertThat(Publications.tables(c, publication(db)).tables()).containsExactlyInAnyOrder(ORDERS, LATER);
        }
    }

    @Test
    void aReplicaIdentityResetAfterAnUnchangedRefreshIsSetFullAgainAtTheNext(TestServices services)
        throws Exception {
        PostgresDatabase db = tenant(services);
        CapturedTables tables = new CapturedTables(publication(db), wildcard(), true);
        try (Connection c = db.connect()) {
            settle(tables, c);
            assertThat(replicaIdentity(c, ORDERS)).isEqualTo("f");

            db.execute("ALTER TABLE tenant_1.orders REPLICA IDENTITY DEFAULT");
            tables.refresh(c);

            assertThat(replicaIdentity(c, ORDERS)).isEqualTo("f");
        }
    }

    @Test
    void aKeyAddedToAReportedTableIsCapturedAtTheNextRefresh(TestServices services) throws Exception {
        PostgresDatabase db = tenant(services);
        db.execute("CREATE SCHEMA tenant_2", "CREATE TABLE tenant_2.orders (id int NOT NULL, note text)");
        CapturedTables tables = new CapturedTables(publication(db), wildcard(), true);
        try (Connection c = db.connect()) {
            assertThat(settle(tables, c).problems()).containsOnlyKeys(LATER);

            db.execute("ALTER TABLE tenant_2.orders ADD PRIMARY KEY (id)");
            TableRefresh next = tables.refresh(c);

            assertThat(next.problems()).isEmpty();
            assertThat(next.captured()).containsExactlyInAnyOrder(ORDERS, LATER);
        }
    }

    @Test
    void aTableTheSelectionTakesUpWithoutAnyCatalogChangeIsCapturedAtTheNextRefresh(TestServices services)
        throws Exception {
        PostgresDatabase db = tenant(services);
        db.execute("CREATE SCHEMA tenant_2", "CREATE TABLE tenant_2.orders (id int PRIMARY KEY, note text)");
        Set<TableId> selected = new ConcurrentSkipListSet<>(Set.of(ORDERS));
        TableSelection selection = sourceTables -> {
            Set<TableId> chosen = new TreeSet<>(selected);
            chosen.retainAll(sourceTables);
            return chosen;
        };
        CapturedTables tables = new CapturedTables(publication(db), selection, true);
        try (Connection c = db.connect()) {
            assertThat(settle(tables, c).captured()).containsExactly(ORDERS);

            selected.add(LATER);

            assertThat(tables.refresh(c).captured()).containsExactlyInAnyOrder(ORDERS, LATER);
        }
    }

    @Test
    void aTableRemovedFromThePublicationByHandIsAddedAgainAtTheNextRefresh(TestServices services)
        throws Exception {
        PostgresDatabase db = tenant(services);
        CapturedTables tables = new CapturedTables(publication(db), wildcard(), true);
        try (Connection c = db.connect()) {
            settle(tables, c);

            db.execute("ALTER PUBLICATION " + publication(db) + " DROP TABLE tenant_1.orders");
            TableRefresh next = tables.refresh(c);

            assertThat(next.added()).containsExactly(ORDERS);
            assertThat(Publications.tables(c, publication(db)).tables()).containsExactly(ORDERS);
        }
    }

    @Test
    void aColumnMadeToastableAfterAnUnchangedRefreshGetsFullIdentityWithinTheFullRefreshInterval(
        TestServices services) throws Exception {
        PostgresDatabase db = tenant(services);
        db.execute("ALTER TABLE tenant_1.orders ALTER COLUMN note SET STORAGE PLAIN");
        CapturedTables tables = new CapturedTables(publication(db), wildcard(), true);
        try (Connection c = db.connect()) {
            settle(tables, c);
            assertThat(replicaIdentity(c, ORDERS)).isEqualTo("d");

            db.execute("ALTER TABLE tenant_1.orders ALTER COLUMN note SET STORAGE EXTENDED");
            for (int i = 0; i < CapturedTables.FULL_EVERY; i++) {
                tables.refresh(c);
            }

            assertThat(replicaIdentity(c, ORDERS)).isEqualTo("f");
        }
    }

    /**
     * Refreshes until a refresh finds the catalog as the one before it left it (the first ones change it: the
     * publication, replica identities), then once more, so that the refresh after the test's change follows an
     * unchanged one.
     */
    private static TableRefresh settle(CapturedTables tables, Connection c) throws Exception {
        tables.refresh(c);
        tables.refresh(c);
        return tables.refresh(c);
    }

    private static PostgresDatabase tenant(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        db.execute("CREATE SCHEMA tenant_1", "CREATE TABLE tenant_1.orders (id int PRIMARY KEY, note text)");
        try (Connection c = db.connect()) {
            Publications.ensure(c, publication(db));
        }
        return db;
    }

    private static String publication(PostgresDatabase db) {
        return "captured_" + db.name().replaceAll("[^a-z0-9_]", "_");
    }

    private static TableSelection wildcard() {
        return sourceTables -> {
            Set<TableId> chosen = new TreeSet<>();
            for (TableId table : sourceTables) {
                if (table.schema().startsWith("tenant_")) {
                    chosen.add(table);
                }
            }
            return chosen;
        };
    }

    private static String replicaIdentity(Connection c, TableId table) throws Exception {
        try (PreparedStatement s = c.prepareStatement("SELECT relreplident FROM pg_class WHERE oid = ?::regclass")) {
            s.setString(1, table.quoted());
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }
}
