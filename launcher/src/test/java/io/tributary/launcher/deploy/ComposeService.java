package io.tributary.launcher.deploy;

import io.tributary.launcher.env.Role;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One service of a compose file.
 *
 * @param name the service name
 * @param body its definition, merge keys resolved and variables interpolated
 */
public record ComposeService(String name, Map<String, Object> body) {

    /** Whether the service is built from the repository (the Tributary image). */
    public boolean builtFromRepository() {
        return body.containsKey("build");
    }

    /** The command, as a list. */
    public List<String> command() {
        return YamlTree.list(body, "command").stream().map(String::valueOf).toList();
    }

    /**
     * The role the command runs ({@code run --role ROLE}).
     *
     * @throws IllegalArgumentException if the command is not {@code run} with a legal role
     */
    public Role role() {
        List<String> command = command();
        int flag = command.indexOf("--role");
        if (command.isEmpty() || !command.get(0).equals("run") || flag < 0 || flag + 1 >= command.size()) {
            throw new IllegalArgumentException("Service " + name + " does not run `run --role ROLE`: " + command);
        }
        return Role.fromCliName(command.get(flag + 1));
    }

    /** The environment, in either of Compose's forms (map or {@code NAME=value} list). */
    public Map<String, String> environment() {
        Object environment = body.get("environment");
        Map<String, String> variables = new LinkedHashMap<>();
        if (environment instanceof List<?> list) {
            for (Object entry : list) {
                String text = String.valueOf(entry);
                int equals = text.indexOf('=');
                variables.put(equals < 0 ? text : text.substring(0, equals),
                    equals < 0 ? "" : text.substring(equals + 1));
            }
        } else if (environment != null) {
            YamlTree.map(environment).forEach((key, value) -> variables.put(key, String.valueOf(value)));
        }
        return variables;
    }

    /** The health check's test command; empty if none. */
    public List<String> healthcheck() {
        return YamlTree.list(YamlTree.map(body, "healthcheck"), "test").stream().map(String::valueOf).toList();
    }

    /** The services this one waits for, with the condition ({@code service_started} for the short form). */
    public Map<String, String> dependsOn() {
        Object dependsOn = body.get("depends_on");
        Map<String, String> conditions = new LinkedHashMap<>();
        if (dependsOn instanceof List<?> list) {
            list.forEach(service -> conditions.put(String.valueOf(service), "service_started"));
        } else if (dependsOn != null) {
            YamlTree.map(dependsOn).forEach((service, spec) -> conditions.put(service,
                YamlTree.string(YamlTree.map(spec), "condition").orElse("service_started")));
        }
        return conditions;
    }

    /** Its fixed container name, which would block {@code --scale}. */
    public Optional<String> containerName() {
        return YamlTree.string(body, "container_name");
    }

    /** Its published ports. */
    public List<Object> ports() {
        return YamlTree.list(body, "ports");
    }

    /** Its volumes in short form ({@code source:target[:mode]}). */
    public List<String> volumes() {
        return YamlTree.list(body, "volumes").stream().map(String::valueOf).toList();
    }

    /** The host file or folder bind-mounted at {@code target}, resolved against {@code directory}. */
    public Optional<Path> hostPathOf(String target, Path directory) {
        return volumes().stream().map(volume -> volume.split(":"))
            .filter(parts -> parts.length >= 2 && parts[1].equals(target) && parts[0].startsWith("."))
            .map(parts -> directory.resolve(parts[0]).normalize())
            .findFirst();
    }
}
