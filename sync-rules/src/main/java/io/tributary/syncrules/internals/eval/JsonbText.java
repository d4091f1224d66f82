package io.tributary.syncrules.internals.eval;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.topics.json.CanonicalJson;
import java.util.Map;

/**
 * JSON text as Postgres prints a {@code jsonb} value: {@code ": "} after keys and {@code ", "} between members and
 * elements ({@code {"a": [1, true], "b": null}}), keys in the tree's order, numbers as their text, strings escaped
 * as Postgres escapes them ({@code \" \\ \b \f \n \r \t}, other control characters as lower-case
 * {@code \}{@code u00xx}). Stateless and thread-safe.
 */
final class JsonbText {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private JsonbText() {
    }

    /** The jsonb text of {@code value}. */
    static String of(JsonNode value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    /** Appends the jsonb text of {@code value}. */
    static void write(JsonNode value, StringBuilder out) {
        switch (value.getNodeType()) {
            case OBJECT -> {
                out.append('{');
                boolean first = true;
                for (Map.Entry<String, JsonNode> field : value.properties()) {
                    if (!first) {
                        out.append(", ");
                    }
                    first = false;
                    quote(field.getKey(), out);
                    out.append(": ");
                    write(field.getValue(), out);
                }
                out.append('}');
            }
            case ARRAY -> {
                out.append('[');
                for (int i = 0; i < value.size(); i++) {
                    if (i > 0) {
                        out.append(", ");
                    }
                    write(value.get(i), out);
                }
                out.append(']');
            }
            case STRING -> quote(value.textValue(), out);
            default -> CanonicalJson.write(value, out);
        }
    }

    private static void quote(String text, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
