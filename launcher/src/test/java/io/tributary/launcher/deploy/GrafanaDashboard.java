package io.tributary.launcher.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.stream.Collectors;

/** A Grafana dashboard JSON: its panels' PromQL expressions and its template variables' defaults. */
public final class GrafanaDashboard {

    private final JsonNode root;

    private GrafanaDashboard(JsonNode root) {
        this.root = root;
    }

    /**
     * Parses a dashboard.
     *
     * @throws UncheckedIOException if the file is not valid JSON
     */
    public static GrafanaDashboard load(Path file) {
        try {
            return new GrafanaDashboard(new ObjectMapper().readTree(file.toFile()));
        } catch (IOException e) {
            throw new UncheckedIOException("Not a valid JSON dashboard: " + file, e);
        }
    }

    /** The repository's dashboard. */
    public static GrafanaDashboard repository() {
        return load(RepositoryFiles.root().resolve("deploy").resolve("grafana").resolve("tributary-dashboard.json"));
    }

    /** The dashboard's title. */
    public String title() {
        return root.path("title").asText();
    }

    /** Every panel, including those nested in rows. */
    public List<JsonNode> panels() {
        List<JsonNode> panels = new ArrayList<>();
        for (JsonNode panel : root.path("panels")) {
            panels.add(panel);
            panel.path("panels").forEach(panels::add);
        }
        return panels;
    }

    /** Every query expression of every panel, as written (variables not substituted). */
    public List<String> expressions() {
        List<String> expressions = new ArrayList<>();
        for (JsonNode panel : panels()) {
            panel.path("targets").forEach(target -> expressions.add(target.path("expr").asText()));
        }
        return expressions;
    }

    /** The default value of each template variable that has one. */
    public Map<String, String> variableDefaults() {
        Map<String, String> defaults = new LinkedHashMap<>();
        for (JsonNode variable : root.path("templating").path("list")) {
            JsonNode value = variable.path("current").path("value");
            if (value.isTextual()) {
                defaults.put(variable.path("name").asText(), value.asText());
            }
        }
        return defaults;
    }

    /** {@code expression} with {@code ${name}} and {@code $name} replaced by the variables' defaults. */
    public String substituteDefaults(String expression) {
        String result = expression;
        for (Map.Entry<String, String> variable : variableDefaults().entrySet()) {
            result = result.replace("${" + variable.getKey() + "}", variable.getValue())
                .replaceAll("\\$" + variable.getKey() + "\\b", Matcher.quoteReplacement(variable.getValue()));
        }
        return result;
    }

    /** Every metric name the panels query. */
    public Set<String> metricNames() {
        return expressions().stream().flatMap(expression -> PromQl.metricNames(expression).stream())
            .collect(Collectors.toCollection(TreeSet::new));
    }
}
