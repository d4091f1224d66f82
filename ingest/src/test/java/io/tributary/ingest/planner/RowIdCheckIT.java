package io.tributary.ingest.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.progress.RowIdConflicts;
import io.tributary.storage.progress.WindowStatus;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TaskPriority;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A table created after deploy and matched by a wildcard is checked, before its window opens, against the rules of
 * every live group that reads it: an id that is not its single-column primary key holds that group (its conflict
 * names the group, the query, the table and the fix) until a window whose check passes releases it.
 */
@RealServices
class RowIdCheckIT {

    private static final TableId ORDERS_A = TableId.of("tenant_a", "orders");
    private static final TableId ORDERS_B = TableId.of("tenant_b", "orders");

    /** The fixture's patterns, and a stand-in for the rules' id check: "12:7" reads id, which must be the key. */
    private static final RulesMatcher ID_MUST_BE_THE_KEY = new RulesMatcher() {
        @Override
        public Set<String> tablesMatching(String rulesYaml, Collection<String> qualifiedTables) {
            return PlannerFixture.PATTERNS.tablesMatching(rulesYaml, qualifiedTables);
        }

        @Override
        public Map<TableId, List<String>> rowIdProblems(String rulesYaml, Connection source,
                                                        Collection<TableId> tables) throws SQLException {
            Map<TableId, List<String>> problems = new LinkedHashMap<>();
            for (TableId table : RulesMatcher.super.rowIdProblems(rulesYaml, source, tables).keySet()) {
                problems.put(table, problems(source, table));
            }
            return problems;
        }

        private List<String> problems(Connection source, TableId table) throws SQLException {
            try (PreparedStatement key = source.prepareStatement("SELECT array_agg(a.attname::text ORDER BY a.attnum)"
                + " FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)"
                + " WHERE i.indisprimary AND i.indrelid = (quote_ident(?) || '.' || quote_ident(?))::regclass")) {
                key.setString(1, table.schema());
                key.setString(2, table.name());
                try (ResultSet rs = key.executeQuery()) {
                    rs.next();
                    List<Object> columns = List.of((Object[]) rs.getArray(1).getArray());
                    return columns.equals(List.of("id")) ? List.of() : List.of("12:7: SELECT * FROM \"tenant_%\".orders"
                        + " outputs id, but the primary key of " + table + " is " + columns + ": select it as id");
                }
            }
        }
    };

    @Test
    void aNewTableWhoseKeyTheRulesCannotUseHoldsItsGroupUntilAFixedTableIsSnapshottedAgain(TestServices services)
        throws Exception {
        PlannerFixture f = new PlannerFixture(services);
        f.source.execute("CREATE SCHEMA tenant_a", "CREATE SCHEMA tenant_b",
            "CREATE TABLE tenant_a.orders (id bigint PRIMARY KEY, n integer)");
        SyncRulesGroup group = f.group(GroupState.ACTIVE, "tenant_%.orders");
        try (SnapshotPlanner planner = SnapshotPlanner.create(f.config(5000), f.source::connect, f.storage::connect,
            ID_MUST_BE_THE_KEY)) {
            planner.planOnce();
            assertThat(conflict(f, group)).isEmpty();

            f.source.execute("CREATE TABLE tenant_b.orders (id bigint, line integer, PRIMARY KEY (id, line))");
            planner.planOnce();
            assertThat(conflict(f, group)).hasValueSatisfying(problem -> assertThat(problem).contains(
                "Sync rules group " + group.id(), ORDERS_B.quoted(), "12:7", "select it as id",
                "tributary resnapshot --config FILE tenant_b orders"));
            assertThat(f.window(ORDERS_B).state()).as("the window other groups may need").isNotEqualTo(
                WindowStatus.FAILED);

            f.storage.execute("UPDATE tributary.source_tables SET state = 'DONE' WHERE table_schema = 'tenant_b'");
            assertThatThrownBy(() -> planner.resnapshot(ORDERS_B, TaskPriority.ACTIVE_SNAPSHOT))
                .isInstanceOf(PlanningException.class).hasMessageContaining("12:7");
            assertThat(conflict(f, group)).isPresent();

            f.source.execute("ALTER TABLE tenant_b.orders DROP CONSTRAINT orders_pkey",
                "ALTER TABLE tenant_b.orders ADD PRIMARY KEY (id)");
            // what storage holds at the moment the conflict goes: a checkpoint published then must find the new
            // window, or it would be taken from the old one, under the old key
            f.storage.execute("CREATE TABLE public.cleared (new_window_stored boolean)",
                "CREATE FUNCTION public.cleared() RETURNS trigger AS $$ BEGIN INSERT INTO public.cleared"
                    + " SELECT EXISTS (SELECT 1 FROM tributary.source_tables WHERE table_schema = OLD.table_schema"
                    + " AND table_name = OLD.table_name AND state = 'PLANNING'); RETURN OLD; END $$ LANGUAGE plpgsql",
                "CREATE TRIGGER cleared AFTER DELETE ON tributary.row_id_conflicts FOR EACH ROW"
                    + " EXECUTE FUNCTION public.cleared()");
            assertThat(planner.resnapshot(ORDERS_B, TaskPriority.ACTIVE_SNAPSHOT)).isPresent();
            assertThat(conflict(f, group)).isEmpty();
            assertThat(clearedWithTheNewWindowStored(f))
                .as("whether the new window was stored when the conflict was cleared").containsExactly(true);
        }
        assertThat(f.window(ORDERS_A).state()).isNotEqualTo(WindowStatus.FAILED);
    }

    private static List<Boolean> clearedWithTheNewWindowStored(PlannerFixture f) throws SQLException {
        List<Boolean> cleared = new ArrayList<>();
        try (Connection c = f.storage.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT new_window_stored FROM public.cleared")) {
            while (rs.next()) {
                cleared.add(rs.getBoolean(1));
            }
        }
        return cleared;
    }

    private static Optional<String> conflict(PlannerFixture f, SyncRulesGroup group) throws SQLException {
        try (Connection c = f.storage.connect()) {
            return RowIdConflicts.first(c, group.id());
        }
    }
}
