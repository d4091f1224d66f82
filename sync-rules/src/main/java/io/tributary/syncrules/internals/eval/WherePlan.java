package io.tributary.syncrules.internals.eval;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.syncrules.Edition;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A data query's compiled WHERE: the names of the buckets a row belongs to. Built by {@link WhereCompiler}, in
 * one of three shapes: a global bucket (a filter, one constant name), a single binding (a filter plus one column
 * per parameter, the common {@code column = bucket.p AND ...}), or the general binding tree.
 * Immutable and thread-safe.
 */
abstract class WherePlan {

    /**
     * The bucket names {@code row} belongs to, without duplicates; empty when it belongs to none. Parameter values
     * are the row's client values in {@code edition} ({@link ClientValues#parameterText}).
     */
    abstract List<String> buckets(ObjectNode row, Edition edition);

    /** A definition without parameters: bucket {@code name[]} when the filter holds. */
    static WherePlan global(String definition, Filter<ObjectNode> filter) {
        List<String> bucket = List.of(definition + "[]");
        return new WherePlan() {
            @Override
            List<String> buckets(ObjectNode row, Edition edition) {
                return filter.test(row) ? bucket : List.of();
            }
        };
    }

    /** One bucket whose parameter {@code i} is the value of {@code columns[i]}, when the filter holds. */
    static WherePlan single(String definition, Filter<ObjectNode> filter, List<String> columns) {
        String prefix = definition + "[";
        String[] columnsBySlot = columns.toArray(new String[0]);
        return new WherePlan() {
            @Override
            List<String> buckets(ObjectNode row, Edition edition) {
                if (!filter.test(row)) {
                    return List.of();
                }
                StringBuilder name = new StringBuilder(prefix.length() + 40).append(prefix);
                for (int i = 0; i < columnsBySlot.length; i++) {
                    if (i > 0) {
                        name.append(',');
                    }
                    Optional<String> text = ClientValues.parameterText(row.get(columnsBySlot[i]), edition);
                    if (text.isEmpty()) {
                        return List.of();
                    }
                    name.append(text.get());
                }
                return List.of(name.append(']').toString());
            }
        };
    }

    /** Any shape: the buckets of every complete binding of {@code root}. */
    static WherePlan general(String definition, BindingNode root) {
        return new WherePlan() {
            @Override
            List<String> buckets(ObjectNode row, Edition edition) {
                List<String[]> bindings = root.bindings(row, edition);
                if (bindings.isEmpty()) {
                    return List.of();
                }
                if (bindings.size() == 1) {
                    return List.of(bucketName(definition, bindings.get(0)));
                }
                Set<String> names = new LinkedHashSet<>();
                for (String[] binding : bindings) {
                    names.add(bucketName(definition, binding));
                }
                return new ArrayList<>(names);
            }
        };
    }

    /** {@code definition[v1,v2,...]} from canonical JSON parameter texts. */
    static String bucketName(String definition, String[] parameterTexts) {
        StringBuilder name = new StringBuilder(definition).append('[');
        for (int i = 0; i < parameterTexts.length; i++) {
            if (i > 0) {
                name.append(',');
            }
            name.append(parameterTexts[i]);
        }
        return name.append(']').toString();
    }
}
