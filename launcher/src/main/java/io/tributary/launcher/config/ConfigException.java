package io.tributary.launcher.config;

import java.util.List;

/** The configuration is invalid; the message lists every problem, one per line, each naming its key. */
public final class ConfigException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    public ConfigException(List<String> problems) {
        super("Invalid configuration:\n  " + String.join("\n  ", problems));
        this.problems = List.copyOf(problems);
    }

    /** One line per problem: where (file line or environment variable), which key, what is wrong. */
    public List<String> problems() {
        return problems;
    }
}
