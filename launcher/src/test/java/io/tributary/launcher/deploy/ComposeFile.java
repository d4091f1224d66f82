package io.tributary.launcher.deploy;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code docker-compose.yml} as Compose reads it without a shell environment: merge keys resolved and
 * {@code ${NAME:-default}} interpolated with its default (Compose's behaviour when the variable is unset).
 */
public final class ComposeFile {

    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(:?-([^}]*))?}");

    private final Path file;
    private final Map<String, ComposeService> services;

    private ComposeFile(Path file, Map<String, ComposeService> services) {
        this.file = file;
        this.services = services;
    }

    /** Reads a compose file. */
    public static ComposeFile load(Path file) {
        Map<String, Object> root = YamlTree.map(interpolate(RepositoryFiles.yamlMap(file)));
        Map<String, ComposeService> services = new LinkedHashMap<>();
        YamlTree.map(root, "services").forEach((name, body) ->
            services.put(name, new ComposeService(name, YamlTree.map(body))));
        return new ComposeFile(file, services);
    }

    /** The repository's {@code docker-compose.yml}. */
    public static ComposeFile repository() {
        return load(RepositoryFiles.root().resolve("docker-compose.yml"));
    }

    /** Every service, by name, in file order. */
    public Map<String, ComposeService> services() {
        return services;
    }

    /** The service called {@code name}. */
    public ComposeService service(String name) {
        ComposeService service = services.get(name);
        if (service == null) {
            throw new IllegalArgumentException("No service '" + name + "' in " + file + "; it has "
                + services.keySet());
        }
        return service;
    }

    /** The services running the Tributary image (built from the repository's Dockerfile). */
    public List<ComposeService> tributaryServices() {
        return services.values().stream().filter(ComposeService::builtFromRepository).toList();
    }

    /** The folder relative paths in the file resolve against. */
    public Path directory() {
        return file.toAbsolutePath().getParent();
    }

    private static Object interpolate(Object node) {
        if (node instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((key, value) -> copy.put(String.valueOf(key), interpolate(value)));
            return copy;
        }
        if (node instanceof List<?> list) {
            return list.stream().map(ComposeFile::interpolate).toList();
        }
        if (node instanceof String text) {
            Matcher matcher = VARIABLE.matcher(text);
            StringBuilder out = new StringBuilder();
            while (matcher.find()) {
                String value = matcher.group(3) != null ? matcher.group(3) : "";
                matcher.appendReplacement(out, Matcher.quoteReplacement(value));
            }
            matcher.appendTail(out);
            return out.toString();
        }
        return node;
    }
}
