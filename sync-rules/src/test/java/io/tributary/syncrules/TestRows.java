package io.tributary.syncrules;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;

/** Rows for tests, written as JSON with single quotes for readability. */
final class TestRows {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private TestRows() {
    }

    /** {@code row("{'id': 't1'}")}: single quotes become double quotes. */
    static ObjectNode row(String json) {
        try {
            return (ObjectNode) MAPPER.readTree(json.replace('\'', '"'));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A YAML document from lines. */
    static String yaml(String... lines) {
        return String.join("\n", lines) + "\n";
    }
}
