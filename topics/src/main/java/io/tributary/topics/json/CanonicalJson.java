package io.tributary.topics.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * Compact JSON text of Jackson trees, byte-for-byte what Jackson's default {@code ObjectMapper} writes: no
 * whitespace, object keys in node order, numbers as {@code Number.toString()} of the node's value (so
 * {@code 1.50} parsed as a decimal stays {@code 1.50}), strings with only {@code "}, {@code \} and control
 * characters escaped ({@code \b \t \n \f \r}, others as {@code \}{@code u00XX} upper-case), non-ASCII as is.
 *
 * <p>Stateless and thread-safe.
 */
public final class CanonicalJson {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private CanonicalJson() {
    }

    /** The canonical text of {@code value}; a Java {@code null} or a missing node is written as {@code null}. */
    public static String toJson(JsonNode value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    /** Appends the canonical text of {@code value}. */
    public static void write(JsonNode value, StringBuilder out) {
        if (value == null) {
            out.append("null");
            return;
        }
        switch (value.getNodeType()) {
            case STRING:
                quote(value.textValue(), out);
                break;
            case NUMBER:
                out.append(value.numberValue().toString());
                break;
            case BOOLEAN:
                out.append(value.booleanValue() ? "true" : "false");
                break;
            case ARRAY:
                writeArray(value, out);
                break;
            case OBJECT:
                writeObject(value, out);
                break;
            case BINARY:
            case POJO:
                quote(value.asText(), out);
                break;
            default:
                out.append("null");
        }
    }

    /** Appends {@code text} as a JSON string, quotes included. */
    public static void quote(String text, StringBuilder out) {
        out.append('"');
        int length = text.length();
        int plainFrom = 0;
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\') {
                continue;
            }
            out.append(text, plainFrom, i);
            plainFrom = i + 1;
            switch (c) {
                case '"':
                    out.append("\\\"");
                    break;
                case '\\':
                    out.append("\\\\");
                    break;
                case '\b':
                    out.append("\\b");
                    break;
                case '\t':
                    out.append("\\t");
                    break;
                case '\n':
                    out.append("\\n");
                    break;
                case '\f':
                    out.append("\\f");
                    break;
                case '\r':
                    out.append("\\r");
                    break;
                default:
                    out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
            }
        }
        out.append(text, plainFrom, length).append('"');
    }

    private static void writeArray(JsonNode array, StringBuilder out) {
        out.append('[');
        for (int i = 0; i < array.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            write(array.get(i), out);
        }
        out.append(']');
    }

    private static void writeObject(JsonNode object, StringBuilder out) {
        out.append('{');
        boolean first = true;
        for (Map.Entry<String, JsonNode> field : object.properties()) {
            if (!first) {
                out.append(',');
            }
            first = false;
            quote(field.getKey(), out);
            out.append(':');
            write(field.getValue(), out);
        }
        out.append('}');
    }
}
