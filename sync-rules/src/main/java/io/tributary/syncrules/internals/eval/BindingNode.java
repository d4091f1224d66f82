package io.tributary.syncrules.internals.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.syncrules.Edition;
import java.util.ArrayList;
import java.util.List;

/**
 * The general evaluation of a WHERE condition with bucket parameters: each node returns the partial parameter
 * bindings (one canonical JSON text per parameter slot, {@code null} where unbound) under which the row
 * satisfies it. AND merges bindings pairwise (dropping conflicting ones), OR concatenates them. Binding arrays
 * are never modified once returned. Immutable and thread-safe.
 */
abstract class BindingNode {

    private static final JsonNode EMPTY_ARRAY = JsonNodeFactory.instance.arrayNode();

    /** The bindings under which {@code row} satisfies this node; empty when it does not. */
    abstract List<String[]> bindings(ObjectNode row, Edition edition);

    /** A condition without parameters: the empty binding when it holds. */
    static BindingNode filter(Filter<ObjectNode> filter, int slots) {
        List<String[]> unbound = List.<String[]>of(new String[slots]);
        return new BindingNode() {
            @Override
            List<String[]> bindings(ObjectNode row, Edition edition) {
                return filter.test(row) ? unbound : List.of();
            }
        };
    }

    /**
     * {@code column = bucket.p} / {@code column IN bucket.p} ({@code expand == false}): binds the column's value;
     * {@code bucket.p IN column} ({@code expand == true}): binds each element of the column's JSON array (or of a
     * string holding a JSON array).
     */
    static BindingNode bind(String column, int slot, int slots, boolean expand) {
        return new BindingNode() {
            @Override
            List<String[]> bindings(ObjectNode row, Edition edition) {
                JsonNode value = row.get(column);
                if (!expand) {
                    return ClientValues.parameterText(value, edition).map(text -> single(slot, slots, text))
                        .orElse(List.of());
                }
                JsonNode array = asArray(value);
                List<String[]> result = new ArrayList<>(array.size());
                for (JsonNode element : array) {
                    ClientValues.parameterText(element, edition)
                        .ifPresent(text -> result.addAll(single(slot, slots, text)));
                }
                return result;
            }
        };
    }

    /** All of {@code nodes}: the pairwise merges of their bindings. */
    static BindingNode and(List<BindingNode> nodes) {
        BindingNode[] all = nodes.toArray(new BindingNode[0]);
        return new BindingNode() {
            @Override
            List<String[]> bindings(ObjectNode row, Edition edition) {
                List<String[]> result = all[0].bindings(row, edition);
                for (int i = 1; i < all.length && !result.isEmpty(); i++) {
                    List<String[]> next = all[i].bindings(row, edition);
                    result = next.isEmpty() ? next : merge(result, next);
                }
                return result;
            }
        };
    }

    /** Any of {@code nodes}: the union of their bindings. */
    static BindingNode or(List<BindingNode> nodes) {
        BindingNode[] any = nodes.toArray(new BindingNode[0]);
        return new BindingNode() {
            @Override
            List<String[]> bindings(ObjectNode row, Edition edition) {
                List<String[]> result = new ArrayList<>();
                for (BindingNode node : any) {
                    result.addAll(node.bindings(row, edition));
                }
                return result;
            }
        };
    }

    private static List<String[]> single(int slot, int slots, String text) {
        String[] binding = new String[slots];
        binding[slot] = text;
        return List.<String[]>of(binding);
    }

    private static List<String[]> merge(List<String[]> left, List<String[]> right) {
        List<String[]> result = new ArrayList<>(left.size() * right.size());
        for (String[] a : left) {
            for (String[] b : right) {
                String[] merged = a.clone();
                boolean compatible = true;
                for (int i = 0; i < merged.length && compatible; i++) {
                    if (merged[i] == null) {
                        merged[i] = b[i];
                    } else if (b[i] != null && !b[i].equals(merged[i])) {
                        compatible = false;
                    }
                }
                if (compatible) {
                    result.add(merged);
                }
            }
        }
        return result;
    }

    private static JsonNode asArray(JsonNode value) {
        if (value != null && value.isArray()) {
            return value;
        }
        if (value != null && value.isTextual() && value.textValue().startsWith("[")) {
            JsonNode parsed = RowJsonParser.parseOrMissing(value.textValue());
            if (parsed.isArray()) {
                return parsed;
            }
        }
        return EMPTY_ARRAY;
    }
}
