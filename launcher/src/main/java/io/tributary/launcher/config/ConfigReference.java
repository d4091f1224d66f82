package io.tributary.launcher.config;

import java.util.Locale;
import java.util.Optional;

/**
 * The configuration reference of {@code docs/configuration.md}, generated from {@link ConfigKeys}: one table row
 * per key (name, environment variable, default, accepted values, meaning) in declaration order, then the
 * pass-through Kafka properties. The doc holds it between {@link #BEGIN} and {@link #END}; the rest of the doc is
 * written by hand.
 */
public final class ConfigReference {

    /** The line after which the generated table starts. */
    public static final String BEGIN = "<!-- generated from ConfigKeys: begin -->";
    /** The line before which the generated table ends. */
    public static final String END = "<!-- generated from ConfigKeys: end -->";

    private ConfigReference() {
    }

    /** The table, without the markers, ending in a newline. */
    public static String table() {
        StringBuilder table = new StringBuilder("| key | environment variable | default | accepted | meaning |\n"
            + "| --- | --- | --- | --- | --- |\n");
        for (ConfigKey key : ConfigKeys.ALL) {
            table.append("| `").append(key.name()).append("` | `").append(key.environmentVariable()).append("` | ")
                .append(defaultText(key)).append(" | ").append(cell(key.rule().requirement())).append(" | ")
                .append(cell(key.doc())).append(" |\n");
        }
        String prefix = ConfigKeys.KAFKA_PROPERTIES_PREFIX;
        table.append("| `").append(prefix).append("*` | `")
            .append(ConfigKey.environmentVariable(prefix).toUpperCase(Locale.ROOT)).append("*` | none | any value | ")
            .append("passed to every Kafka client unchanged: `security.protocol`, `sasl.*`, `ssl.*`, timeouts |\n");
        return table.toString();
    }

    /** {@code doc} with the part between the markers replaced by {@link #table()}. */
    public static String regenerate(String doc) {
        int begin = doc.indexOf(BEGIN);
        int end = doc.indexOf(END);
        if (begin < 0 || end < begin) {
            throw new IllegalArgumentException("The doc has no " + BEGIN + " ... " + END + " section");
        }
        return doc.substring(0, begin + BEGIN.length()) + "\n" + table() + doc.substring(end);
    }

    private static String defaultText(ConfigKey key) {
        Optional<String> value = key.defaultValue();
        if (value.isEmpty()) {
            return "none";
        }
        if (value.get().isEmpty()) {
            return "empty";
        }
        return "`" + value.get() + "`";
    }

    private static String cell(String text) {
        return text.replace("|", "\\|");
    }
}
