package io.tributary.syncrules.internals.yaml;

import io.tributary.syncrules.Problem;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Reads the PowerSync layout of sync rules with SnakeYAML's node API, keeping every scalar's position:
 *
 * <pre>
 * bucket_definitions:
 *   &lt;name&gt;:
 *     parameters: &lt;query&gt; | [&lt;query&gt;, ...]     # optional: without it the bucket is global
 *     data: [&lt;query&gt;, ...]
 * </pre>
 *
 * Unknown keys, duplicate keys, wrong node kinds and YAML syntax errors become {@link Problem}s.
 */
public final class RulesYaml {

    private static final String BUCKET_DEFINITIONS = "bucket_definitions";
    private static final String PARAMETERS = "parameters";
    private static final String DATA = "data";
    private static final String PRIORITY = "priority";

    private final SourceText source;
    private final List<Problem> problems;

    private RulesYaml(SourceText source, List<Problem> problems) {
        this.source = source;
        this.problems = problems;
    }

    /** The definitions of {@code yaml} in document order; problems are added to {@code problems}. */
    public static List<DefinitionSource> read(String yaml, List<Problem> problems) {
        return new RulesYaml(new SourceText(yaml), problems).read(yaml);
    }

    private List<DefinitionSource> read(String yaml) {
        Optional<Node> root = compose(yaml);
        if (root.isEmpty()) {
            return List.of();
        }
        if (!(root.get() instanceof MappingNode mapping)) {
            problems.add(at(root.get(), "expected a mapping with the key " + BUCKET_DEFINITIONS));
            return List.of();
        }
        Optional<Node> definitions = Optional.empty();
        for (NodeTuple entry : entries(mapping, "the top level")) {
            String key = keyOf(entry);
            if (key.equals(BUCKET_DEFINITIONS)) {
                definitions = Optional.of(entry.getValueNode());
            } else {
                problems.add(at(entry.getKeyNode(), "unknown key '" + key + "' (expected " + BUCKET_DEFINITIONS
                    + ")"));
            }
        }
        if (definitions.isEmpty()) {
            problems.add(at(mapping, "missing key " + BUCKET_DEFINITIONS));
            return List.of();
        }
        if (!(definitions.get() instanceof MappingNode definitionsMapping)) {
            problems.add(at(definitions.get(), BUCKET_DEFINITIONS
                + " must be a mapping from bucket definition names to definitions"));
            return List.of();
        }
        List<DefinitionSource> result = new ArrayList<>();
        for (NodeTuple entry : entries(definitionsMapping, BUCKET_DEFINITIONS)) {
            definition(entry).ifPresent(result::add);
        }
        return result;
    }

    private Optional<Node> compose(String yaml) {
        try {
            LoaderOptions options = new LoaderOptions();
            options.setAllowDuplicateKeys(true);
            Node root = new Yaml(new SafeConstructor(options)).compose(new StringReader(yaml));
            if (root == null) {
                problems.add(new Problem(1, 1, "the sync rules are empty: expected " + BUCKET_DEFINITIONS));
            }
            return Optional.ofNullable(root);
        } catch (MarkedYAMLException e) {
            Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            String what = e.getProblem() != null ? e.getProblem() : e.getMessage();
            String context = e.getContext() != null ? " (" + e.getContext() + ")" : "";
            problems.add(mark == null ? new Problem(1, 1, "YAML syntax error: " + what + context)
                : new Problem(mark.getLine() + 1, mark.getColumn() + 1, "YAML syntax error: " + what + context));
            return Optional.empty();
        } catch (YAMLException e) {
            problems.add(new Problem(1, 1, "YAML error: " + e.getMessage()));
            return Optional.empty();
        }
    }

    private Optional<DefinitionSource> definition(NodeTuple entry) {
        String name = keyOf(entry);
        if (name.isEmpty() || name.indexOf('[') >= 0 || name.indexOf(']') >= 0) {
            problems.add(at(entry.getKeyNode(), "bucket definition name '" + name
                + "' must be non-empty and must not contain '[' or ']'"));
        }
        if (!(entry.getValueNode() instanceof MappingNode body)) {
            problems.add(at(entry.getValueNode(), "bucket definition '" + name
                + "' must be a mapping with the keys " + PARAMETERS + " (optional) and " + DATA));
            return Optional.empty();
        }
        List<ScalarText> parameters = List.of();
        Optional<List<ScalarText>> data = Optional.empty();
        int priority = DefinitionSource.DEFAULT_PRIORITY;
        for (NodeTuple field : entries(body, "bucket definition '" + name + "'")) {
            String key = keyOf(field);
            if (key.equals(PARAMETERS)) {
                parameters = parameterQueries(name, field.getValueNode());
            } else if (key.equals(DATA)) {
                data = Optional.of(dataQueries(name, field.getValueNode()));
            } else if (key.equals(PRIORITY)) {
                priority = priority(name, field.getValueNode());
            } else {
                problems.add(at(field.getKeyNode(), "unknown key '" + key + "' in bucket definition '" + name
                    + "' (expected " + PARAMETERS + ", " + DATA + " or " + PRIORITY + ")"));
            }
        }
        if (data.isEmpty()) {
            problems.add(at(entry.getKeyNode(), "bucket definition '" + name + "' has no " + DATA + " queries"));
            return Optional.empty();
        }
        return Optional.of(new DefinitionSource(name, parameters, data.get(), priority));
    }

    private int priority(String name, Node node) {
        if (node instanceof ScalarNode scalar && scalar.getTag().equals(Tag.INT)
            && scalar.getValue().matches("[0-3]")) {
            return Integer.parseInt(scalar.getValue());
        }
        problems.add(at(node, PRIORITY + " of '" + name + "' must be an integer from 0 (synced first) to 3 (the "
            + "default)"));
        return DefinitionSource.DEFAULT_PRIORITY;
    }

    private List<ScalarText> parameterQueries(String name, Node node) {
        if (node instanceof ScalarNode scalar && !isNull(scalar)) {
            return query(scalar, "parameter query").map(List::of).orElse(List.of());
        }
        if (node instanceof SequenceNode sequence && !sequence.getValue().isEmpty()) {
            return queries(sequence, "parameter query");
        }
        problems.add(at(node, PARAMETERS + " of '" + name
            + "' must be a query or a non-empty list of queries (omit it for a global bucket)"));
        return List.of();
    }

    private List<ScalarText> dataQueries(String name, Node node) {
        if (node instanceof SequenceNode sequence && !sequence.getValue().isEmpty()) {
            return queries(sequence, "data query");
        }
        problems.add(at(node, DATA + " of '" + name + "' must be a non-empty list of queries"));
        return List.of();
    }

    private List<ScalarText> queries(SequenceNode sequence, String what) {
        List<ScalarText> result = new ArrayList<>();
        for (Node item : sequence.getValue()) {
            query(item, what).ifPresent(result::add);
        }
        return result;
    }

    private Optional<ScalarText> query(Node node, String what) {
        if (node instanceof ScalarNode scalar && scalar.getTag().equals(Tag.STR)) {
            return Optional.of(new ScalarText(source, scalar));
        }
        problems.add(at(node, "expected a " + what + " (a SQL string)"));
        return Optional.empty();
    }

    private List<NodeTuple> entries(MappingNode mapping, String where) {
        List<NodeTuple> result = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (NodeTuple entry : mapping.getValue()) {
            if (!(entry.getKeyNode() instanceof ScalarNode)) {
                problems.add(at(entry.getKeyNode(), "keys in " + where + " must be plain strings"));
            } else if (!seen.add(keyOf(entry))) {
                problems.add(at(entry.getKeyNode(), "duplicate key '" + keyOf(entry) + "' in " + where));
            } else {
                result.add(entry);
            }
        }
        return result;
    }

    private static String keyOf(NodeTuple entry) {
        return ((ScalarNode) entry.getKeyNode()).getValue();
    }

    private static boolean isNull(ScalarNode scalar) {
        return scalar.getTag().equals(Tag.NULL);
    }

    private Problem at(Node node, String message) {
        int index = source.charIndex(node.getStartMark());
        return new Problem(source.line(index), source.column(index), message);
    }
}
