package io.tributary.ingest.capture.publication;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.sql.Connection;
import java.util.List;
import org.junit.jupiter.api.Test;

@RealServices
class CatalogVersionIT {

    @Test
    void anUnchangedCatalogReadsTheSameVersionAndEachKindOfChangeMovesIt(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        db.execute("CREATE TABLE orders (id int NOT NULL, note text)", "CREATE PUBLICATION version_pub",
            "CREATE TABLE selected (id int PRIMARY KEY)");
        List<String> changes = List.of(
            "CREATE SCHEMA tenant_2",
            "CREATE TABLE tenant_2.orders (id int PRIMARY KEY)",
            "ALTER TABLE orders ADD PRIMARY KEY (id)",
            "ALTER TABLE orders REPLICA IDENTITY FULL",
            "ALTER TABLE orders ADD COLUMN body text",
            "ALTER TABLE orders RENAME TO purchases",
            "ALTER PUBLICATION version_pub ADD TABLE selected",
            "ALTER PUBLICATION version_pub DROP TABLE selected",
            "DROP TABLE tenant_2.orders");
        try (Connection c = db.connect()) {
            CatalogVersion before = CatalogVersion.read(c);
            assertThat(CatalogVersion.read(c)).isEqualTo(before);
            for (String change : changes) {
                db.execute(change);
                CatalogVersion after = CatalogVersion.read(c);
                assertThat(after).as(change).isNotEqualTo(before);
                assertThat(CatalogVersion.read(c)).as("unchanged after " + change).isEqualTo(after);
                before = after;
            }
        }
    }
}
