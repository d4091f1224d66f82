package io.tributary.syncrules;

import static io.tributary.syncrules.TestRows.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TablesMatchingTest {

    private static SyncRules rulesFrom(String... froms) {
        StringBuilder data = new StringBuilder();
        for (String from : froms) {
            data.append("      - SELECT * FROM ").append(from).append('\n');
        }
        return SyncRules.parse(yaml("bucket_definitions:", "  global:", "    data:") + data);
    }

    @Test
    void unqualifiedTableMeansSchemaPublic() {
        SyncRules rules = rulesFrom("todos");

        assertThat(rules.tablesMatching(List.of("public.todos", "other.todos", "public.lists")))
            .containsExactly("public.todos");
    }

    @Test
    void wildcardSchemaMatchesEveryTenant() {
        SyncRules rules = rulesFrom("\"tenant_%\".orders");

        assertThat(rules.tablesMatching(List.of("tenant_1.orders", "tenant_acme.orders", "tenant_1.items",
            "tenant.orders", "public.orders"))).containsExactly("tenant_1.orders", "tenant_acme.orders");
    }

    @Test
    void underscoreIsLiteralNotASingleCharacterWildcard() {
        SyncRules rules = rulesFrom("\"tenant_%\".orders");

        assertThat(rules.tablesMatching(List.of("tenantX1.orders", "tenant_1.orders")))
            .containsExactly("tenant_1.orders");
    }

    @Test
    void wildcardTableNameMatchesWithinOneSchema() {
        SyncRules rules = rulesFrom("public.\"items_%\"", "%.audit_%_log");

        assertThat(rules.tablesMatching(List.of("public.items_2024", "public.items", "other.items_1",
            "x.audit_a_log", "y.audit__log", "y.audit_log"))).containsExactly("public.items_2024", "x.audit_a_log",
            "y.audit__log");
    }

    @Test
    void unquotedNamesFoldToLowerCaseAndQuotedNamesKeepCase() {
        SyncRules rules = rulesFrom("Sales.Orders", "\"Sales\".\"Orders\"");

        assertThat(rules.tablesMatching(List.of("sales.orders", "Sales.Orders", "Sales.orders")))
            .containsExactly("sales.orders", "Sales.Orders");
    }

    @Test
    void evaluationUsesTheSameMatching() {
        SyncRules rules = rulesFrom("\"tenant_%\".orders");

        assertThat(rules.reads("tenant_9.orders")).isTrue();
        assertThat(rules.reads("Tenant_9.orders")).isFalse();
        assertThat(rules.evaluate("tenant_9.orders", TestRows.row("{'id': 1}")).rows()).hasSize(1);
    }
}
