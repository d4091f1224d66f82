package io.tributary.launcher.env;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.syncrules.SyncRules;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.List;
import org.junit.jupiter.api.Test;

@RealServices
class SampleDatasetIT {

    @Test
    void loadsOnceAndItsRulesReadEveryTable(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        SampleDataset sample = new SampleDataset(10, 20, 300);
        try (Connection c = db.connect()) {
            sample.load(c);
            sample.load(c);
            try (ResultSet rs = c.createStatement().executeQuery(
                "SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM lists) + (SELECT count(*) FROM todos)")) {
                rs.next();
                assertThat(rs.getLong(1)).isEqualTo(sample.rows());
            }
        }
        SyncRules rules = SyncRules.parse(SampleDataset.syncRules());
        assertThat(rules.tablesMatching(List.of("public.users", "public.lists", "public.todos", "other.x")))
            .containsExactlyInAnyOrder("public.users", "public.lists", "public.todos");
    }
}
