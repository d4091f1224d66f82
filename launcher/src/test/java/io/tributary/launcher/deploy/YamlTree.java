package io.tributary.launcher.deploy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Typed access to parsed YAML (maps, lists, scalars). A missing key is an empty Optional or an empty collection;
 * a value of the wrong shape throws, naming the key.
 */
public final class YamlTree {

    private YamlTree() {
    }

    /** {@code node} as a map with string keys. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> map(Object node) {
        if (!(node instanceof Map)) {
            throw new IllegalArgumentException("Expected a map, got " + describe(node));
        }
        Map<String, Object> copy = new LinkedHashMap<>();
        ((Map<Object, Object>) node).forEach((key, value) -> copy.put(String.valueOf(key), value));
        return copy;
    }

    /** The map under {@code key}, or an empty map. */
    public static Map<String, Object> map(Map<String, Object> parent, String key) {
        Object value = parent.get(key);
        return value == null ? Map.of() : map(value);
    }

    /** The list under {@code key}, or an empty list. */
    @SuppressWarnings("unchecked")
    public static List<Object> list(Map<String, Object> parent, String key) {
        Object value = parent.get(key);
        if (value == null) {
            return List.of();
        }
        if (!(value instanceof List)) {
            throw new IllegalArgumentException("Expected a list under '" + key + "', got " + describe(value));
        }
        return (List<Object>) value;
    }

    /** The scalar under {@code key} as text (numbers and booleans as YAML wrote them), if present. */
    public static Optional<String> string(Map<String, Object> parent, String key) {
        Object value = parent.get(key);
        if (value instanceof Map || value instanceof List) {
            throw new IllegalArgumentException("Expected a single value under '" + key + "', got " + describe(value));
        }
        return Optional.ofNullable(value).map(String::valueOf);
    }

    /** The scalar under {@code key}, which must be there. */
    public static String required(Map<String, Object> parent, String key) {
        return string(parent, key).orElseThrow(() -> new IllegalArgumentException("Missing '" + key + "' in "
            + parent.keySet()));
    }

    private static String describe(Object node) {
        return node == null ? "nothing" : node.getClass().getSimpleName() + " " + node;
    }
}
