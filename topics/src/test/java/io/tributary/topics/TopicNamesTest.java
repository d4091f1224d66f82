package io.tributary.topics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TopicNamesTest {

    @Test
    void namesArePrefixedRoleSuffixes() {
        TopicNames names = TopicNames.withPrefix("acme.");
        assertThat(names.changes()).isEqualTo("acme.changes");
        assertThat(names.snapshotTasks()).isEqualTo("acme.snapshot-tasks");
        assertThat(names.snapshotRows()).isEqualTo("acme.snapshot-rows");
        assertThat(names.rows()).isEqualTo("acme.rows");
        assertThat(names.deadLetters()).isEqualTo("acme.dead-letters");
        assertThat(names.ingestOffsets()).isEqualTo("acme.ingest-offsets");
    }

    @Test
    void defaultPrefixIsTributary() {
        assertThat(TopicNames.defaults().rows()).isEqualTo("tributary.rows");
    }

    @Test
    void emptyPrefixIsAllowed() {
        assertThat(TopicNames.withPrefix("").all()).contains("changes", "rows");
    }

    @Test
    void prefixWithCharactersKafkaRejectsIsRefused() {
        assertThatThrownBy(() -> TopicNames.withPrefix("my topics/")).isInstanceOf(IllegalArgumentException.class);
    }
}
