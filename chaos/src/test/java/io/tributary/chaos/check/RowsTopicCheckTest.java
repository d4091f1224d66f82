package io.tributary.chaos.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class RowsTopicCheckTest {

    @Test
    void rowsThatDifferByteForByteAreReported() {
        Map<String, Map<String, String>> source = Map.of("public.t", Map.of("[1]", "{\"id\":1,\"x\":1.50}"));
        Map<String, Map<String, String>> topic = Map.of("public.t", Map.of("[1]", "{\"id\":1,\"x\":1.5}"));

        assertThat(RowsTopicCheck.compare(source, topic)).containsExactly(
            new Mismatch("rows-topic", "public.t[1]", "{\"id\":1,\"x\":1.50}", "{\"id\":1,\"x\":1.5}"));
    }

    @Test
    void aRowTheSourceDeletedButTheTopicKeepsIsReported() {
        Map<String, Map<String, String>> source = Map.of("public.t", Map.of());
        Map<String, Map<String, String>> topic = Map.of("public.t", Map.of("[2]", "{\"id\":2}"));

        assertThat(RowsTopicCheck.compare(source, topic)).containsExactly(
            new Mismatch("rows-topic", "public.t[2]", Mismatch.ABSENT, "{\"id\":2}"));
    }
}
