package io.tributary.launcher.config;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * One declared configuration key: its dotted name, type, default, validation and documentation. Every key the
 * launcher accepts is declared exactly once, in {@link ConfigKeys}.
 *
 * @param name dotted name as written in YAML, e.g. {@code source.url}
 * @param type how the value is parsed
 * @param defaultValue the value when neither the file nor the environment sets it; empty = optional key
 * @param rule what a valid value satisfies, and the message when it does not
 * @param secret never logged or printed (passwords)
 * @param doc one line for {@code --help} and the docs
 */
record ConfigKey(String name, ValueType type, Optional<String> defaultValue, Rule rule, boolean secret, String doc) {

    /** A validation rule: a predicate over the parsed value and what it requires. */
    record Rule(Predicate<Object> test, String requirement) {

        static final Rule ANY = new Rule(value -> true, "any value");

        static Rule positive() {
            return new Rule(value -> (Integer) value > 0, "a positive integer");
        }

        static Rule port() {
            return new Rule(value -> (Integer) value >= 0 && (Integer) value <= 65535, "a port 0-65535 (0 = off)");
        }

        static Rule jdbcPostgres() {
            return new Rule(value -> ((String) value).startsWith("jdbc:postgresql://"),
                "a JDBC URL starting with jdbc:postgresql://");
        }

        static Rule identifier() {
            return new Rule(value -> ((String) value).matches("[a-z_][a-z0-9_]{0,62}"),
                "a lower-case Postgres identifier ([a-z_][a-z0-9_]*, at most 63 characters)");
        }

        static Rule httpUri() {
            return new Rule(value -> ((String) value).matches("https?://\\S+"), "an http:// or https:// URL");
        }

        static Rule jwks() {
            return new Rule(value -> ClientAuth.parseKeys((String) value).isPresent(),
                "a list of JWK objects (kty, kid, alg and the key's fields, e.g. k for kty oct)");
        }

        static Rule topicPrefix() {
            return new Rule(value -> ((String) value).matches("[A-Za-z0-9._-]{0,100}"),
                "letters, digits, '.', '_' and '-' (Kafka topic name characters)");
        }
    }

    ConfigKey {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(defaultValue, "defaultValue");
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(doc, "doc");
    }

    /** The environment variable that overrides this key: {@code source.url} -> {@code TRIBUTARY_SOURCE_URL}. */
    String environmentVariable() {
        return environmentVariable(name);
    }

    static String environmentVariable(String dottedName) {
        return "TRIBUTARY_" + dottedName.replace('.', '_').toUpperCase(Locale.ROOT);
    }

    /**
     * Parses and validates a value.
     *
     * @throws IllegalArgumentException with what is wrong
     */
    Object parse(String text) {
        Object value = type.parse(text);
        if (!rule.test().test(value)) {
            throw new IllegalArgumentException("expected " + rule.requirement() + ", got '"
                + (secret ? "****" : text) + "'");
        }
        return value;
    }
}
