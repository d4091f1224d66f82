package io.tributary.syncrules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BucketPriorityTest {

    @Test
    void aDefinitionsPriorityIsReadAndDefaultsToThree() {
        SyncRules rules = SyncRules.parse("""
            bucket_definitions:
              settings:
                priority: 0
                data:
                  - SELECT id FROM settings
              rest:
                data:
                  - SELECT id FROM todos
            """);

        assertThat(rules.priority("settings")).isEqualTo(0);
        assertThat(rules.priority("rest")).isEqualTo(3);
    }

    @Test
    void aPriorityOutsideZeroToThreeFailsAtItsLine() {
        assertThatThrownBy(() -> SyncRules.parse("""
            bucket_definitions:
              settings:
                priority: 7
                data:
                  - SELECT id FROM settings
            """)).isInstanceOf(SyncRulesException.class)
            .hasMessageContaining("line 3, column 15")
            .hasMessageContaining("priority of 'settings' must be an integer from 0");
    }

    @Test
    void anUnknownDefinitionHasNoPriority() {
        SyncRules rules = SyncRules.parse("bucket_definitions:\n  a:\n    data:\n      - SELECT id FROM t\n");

        assertThatThrownBy(() -> rules.priority("b")).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("No bucket definition b");
    }
}
