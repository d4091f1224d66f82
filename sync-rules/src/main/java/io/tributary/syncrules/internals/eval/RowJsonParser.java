package io.tributary.syncrules.internals.eval;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.topics.json.CanonicalJsonFactory;
import java.io.IOException;

/**
 * Parses canonical row JSON without losing number text: non-integers become exact decimals whose trailing zeros
 * are kept ({@code 1.50} stays {@code 1.50} in the output), so a row's output does not depend on binary floating
 * point. Read limits are the canonical ones ({@link CanonicalJsonFactory}). Thread-safe.
 */
public final class RowJsonParser {

    private static final ObjectMapper MAPPER = JsonMapper.builder(CanonicalJsonFactory.newFactory())
        .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
        .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
        .build();

    private RowJsonParser() {
    }

    /** Parses a JSON object. */
    public static ObjectNode parseObject(byte[] json) {
        try {
            return asObject(MAPPER.readTree(json));
        } catch (IOException e) {
            throw new IllegalArgumentException("row is not valid JSON: " + e.getMessage(), e);
        }
    }

    /** Parses a JSON object. */
    public static ObjectNode parseObject(String json) {
        try {
            return asObject(MAPPER.readTree(json));
        } catch (IOException e) {
            throw new IllegalArgumentException("row is not valid JSON: " + e.getMessage(), e);
        }
    }

    /** Parses the JSON value in {@code json[offset, offset + length)}. */
    static JsonNode parseValue(byte[] json, int offset, int length) {
        try {
            return MAPPER.readTree(json, offset, length);
        } catch (IOException e) {
            throw new IllegalArgumentException("row value is not valid JSON: " + e.getMessage(), e);
        }
    }

    /** Parses any JSON value; a malformed text is reported as empty. */
    static JsonNode parseOrMissing(String json) {
        try {
            JsonNode node = MAPPER.readTree(json);
            return node == null ? MAPPER.missingNode() : node;
        } catch (IOException e) {
            return MAPPER.missingNode();
        }
    }

    private static ObjectNode asObject(JsonNode node) {
        if (node instanceof ObjectNode object) {
            return object;
        }
        throw new IllegalArgumentException("row must be a JSON object, got "
            + (node == null ? "nothing" : node.getNodeType()));
    }
}
