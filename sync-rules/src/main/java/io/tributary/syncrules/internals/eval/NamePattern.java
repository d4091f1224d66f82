package io.tributary.syncrules.internals.eval;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A schema or table name from a rule, possibly with the wildcard {@code %} (any run of characters, including
 * none). Unlike SQL {@code LIKE}, {@code _} is a literal character: tenant schema names contain underscores.
 * Matching is case-sensitive on the (already folded) name. Immutable.
 */
public final class NamePattern {

    private final String text;
    private final List<String> parts;

    private NamePattern(String text) {
        this.text = text;
        List<String> split = new ArrayList<>();
        int from = 0;
        for (int i = text.indexOf('%'); i >= 0; i = text.indexOf('%', from)) {
            split.add(text.substring(from, i));
            from = i + 1;
        }
        split.add(text.substring(from));
        this.parts = List.copyOf(split);
    }

    /** The pattern for {@code text}, e.g. {@code tenant_%}. */
    public static NamePattern of(String text) {
        return new NamePattern(Objects.requireNonNull(text, "text"));
    }

    /** Whether the pattern holds a wildcard. */
    public boolean isWildcard() {
        return parts.size() > 1;
    }

    /** Whether {@code name} matches the whole pattern. */
    public boolean matches(String name) {
        if (!isWildcard()) {
            return text.equals(name);
        }
        String first = parts.get(0);
        String last = parts.get(parts.size() - 1);
        if (name.length() < first.length() + last.length() || !name.startsWith(first) || !name.endsWith(last)) {
            return false;
        }
        int pos = first.length();
        int limit = name.length() - last.length();
        for (int i = 1; i < parts.size() - 1; i++) {
            String part = parts.get(i);
            int found = name.indexOf(part, pos);
            if (found < 0 || found + part.length() > limit) {
                return false;
            }
            pos = found + part.length();
        }
        return true;
    }

    @Override
    public String toString() {
        return text;
    }
}
