package io.tributary.launcher.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.jwk.JWKSet;
import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Reads the configuration: an optional YAML file (nested maps or dotted keys), then environment variables
 * ({@code TRIBUTARY_SOURCE_URL} overrides {@code source.url}; {@code TRIBUTARY_KAFKA_PROPERTIES_SASL_MECHANISM}
 * sets the Kafka client property {@code sasl.mechanism}). Every problem is collected and reported at once, each
 * naming its key and where it came from; secrets never appear in messages.
 */
public final class ConfigLoader {

    private static final String ENV_PREFIX = "TRIBUTARY_";
    private static final String KAFKA_PROPERTIES_ENV = ConfigKey.environmentVariable("kafka.properties") + "_";
    /** Variables of the test fixture, not configuration. */
    private static final String TEST_ENV_PREFIX = "TRIBUTARY_TEST_";
    /** Variables read by the start script and the logging setup, not configuration. */
    private static final Set<String> PROCESS_VARIABLES = Set.of("TRIBUTARY_JAVA_OPTS", "TRIBUTARY_LOG_LEVEL");

    /** Keys whose YAML value may be a list: JWK objects become JSON text, audiences a comma-separated list. */
    private static final Set<String> LIST_KEYS = Set.of(ConfigKeys.CLIENT_AUTH_JWKS_KEYS.name(),
        ConfigKeys.CLIENT_AUTH_AUDIENCE.name());
    private static final ObjectMapper JSON = new ObjectMapper();

    private ConfigLoader() {
    }

    private static String listValue(String name, SequenceNode sequence) {
        StringWriter text = new StringWriter();
        new Yaml().serialize(sequence, text);
        Object items = new Yaml(new SafeConstructor(new LoaderOptions())).load(text.toString());
        if (name.equals(ConfigKeys.CLIENT_AUTH_AUDIENCE.name())) {
            return String.join(",", ((List<?>) items).stream().map(String::valueOf).toList());
        }
        try {
            return JSON.writeValueAsString(items);
        } catch (JsonProcessingException e) {
            return "";
        }
    }

    /** A raw value and where it was set, for messages. */
    private record Setting(String value, String origin) {
    }

    /**
     * Loads and validates the configuration.
     *
     * @param file the YAML file; empty = defaults and environment only (the embedded default)
     * @param environment the process environment
     * @throws ConfigException listing every problem
     */
    public static TributaryConfig load(Optional<Path> file, Map<String, String> environment) {
        List<String> problems = new ArrayList<>();
        Map<String, Setting> settings = new LinkedHashMap<>();
        Map<String, String> kafkaProperties = new TreeMap<>();
        file.ifPresent(path -> readFile(path, settings, kafkaProperties, problems));
        readEnvironment(environment, settings, kafkaProperties, problems);

        Map<ConfigKey, Object> values = new LinkedHashMap<>();
        for (ConfigKey key : ConfigKeys.ALL) {
            Setting setting = settings.get(key.name());
            Optional<String> text = setting != null ? Optional.of(setting.value()) : key.defaultValue();
            if (text.isEmpty()) {
                continue;
            }
            try {
                values.put(key, key.parse(text.get()));
            } catch (IllegalArgumentException e) {
                String origin = setting != null ? setting.origin() : "default";
                problems.add(key.name() + " (" + origin + "): " + e.getMessage());
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        Path base = file.map(path -> path.toAbsolutePath().getParent()).orElse(Path.of("").toAbsolutePath());
        return build(values, kafkaProperties, base, environment);
    }

    private static TributaryConfig build(Map<ConfigKey, Object> values, Map<String, String> kafkaProperties,
                                         Path base, Map<String, String> environment) {
        Optional<JdbcEndpoint> source = string(values, ConfigKeys.SOURCE_URL).map(url -> new JdbcEndpoint(url,
            string(values, ConfigKeys.SOURCE_USER).orElseThrow(),
            new Secret(string(values, ConfigKeys.SOURCE_PASSWORD).orElseThrow())));
        Optional<JdbcEndpoint> storage = string(values, ConfigKeys.STORAGE_URL).map(url -> new JdbcEndpoint(url,
            string(values, ConfigKeys.STORAGE_USER).orElseThrow(),
            new Secret(string(values, ConfigKeys.STORAGE_PASSWORD).orElseThrow())));
        KafkaSettings kafka = new KafkaSettings(string(values, ConfigKeys.KAFKA_BOOTSTRAP),
            string(values, ConfigKeys.KAFKA_TOPIC_PREFIX).orElseThrow(), integer(values, ConfigKeys.KAFKA_PARTITIONS),
            integer(values, ConfigKeys.KAFKA_REPLICATION_FACTOR),
            Duration.ofHours(integer(values, ConfigKeys.KAFKA_ROWS_TOMBSTONE_RETENTION)), kafkaProperties);
        ReplicationSettings replication = new ReplicationSettings(
            integer(values, ConfigKeys.WORKERS_PER_PROCESS), integer(values, ConfigKeys.SNAPSHOT_CHUNK_ROWS),
            integer(values, ConfigKeys.SNAPSHOT_MAX_READS), integer(values, ConfigKeys.SOURCE_SOCKET_TIMEOUT),
            string(values, ConfigKeys.SLOT_NAME).orElseThrow(),
            string(values, ConfigKeys.PUBLICATION_NAME).orElseThrow(), integer(values, ConfigKeys.WRITER_BATCH_ROWS),
            integer(values, ConfigKeys.SLOT_WAL_WARNING_MB) * 1024L * 1024L);
        return new TributaryConfig(source, storage, kafka,
            string(values, ConfigKeys.SYNC_RULES).map(base::resolve).map(Path::normalize), replication,
            Duration.ofSeconds(integer(values, ConfigKeys.STARTUP_WAIT)), integer(values, ConfigKeys.METRICS_PORT),
            string(values, ConfigKeys.EMBEDDED_DATA_DIR).map(base::resolve).orElse(base.resolve(DEFAULT_DATA_DIR))
                .normalize(),
            api(values), new CompactionConfig(Duration.ofSeconds(integer(values, ConfigKeys.COMPACTION_INTERVAL)),
                integer(values, ConfigKeys.COMPACTION_BATCH_OPS), integer(values, ConfigKeys.COMPACTION_PASS_OPS)));
    }

    private static ApiConfig api(Map<ConfigKey, Object> values) {
        ClientAuth auth = new ClientAuth(string(values, ConfigKeys.CLIENT_AUTH_JWKS_URI).map(URI::create),
            string(values, ConfigKeys.CLIENT_AUTH_JWKS_KEYS).flatMap(ClientAuth::parseKeys).orElse(new JWKSet()),
            Arrays.stream(string(values, ConfigKeys.CLIENT_AUTH_AUDIENCE).orElseThrow().split(","))
                .map(String::strip).filter(a -> !a.isEmpty()).collect(Collectors.toSet()),
            Duration.ofSeconds(integer(values, ConfigKeys.CLIENT_AUTH_MAX_LIFETIME)));
        return new ApiConfig(integer(values, ConfigKeys.API_PORT), string(values, ConfigKeys.API_HOST).orElseThrow(),
            integer(values, ConfigKeys.API_MAX_STREAMS), integer(values, ConfigKeys.API_STORAGE_CONNECTIONS),
            integer(values, ConfigKeys.API_ACCEPT_QUEUE), auth);
    }

    /** The embedded services' folder when {@code embedded.data_dir} is not set, beside the config file. */
    static final String DEFAULT_DATA_DIR = "tributary-data";

    private static Optional<String> string(Map<ConfigKey, Object> values, ConfigKey key) {
        return Optional.ofNullable((String) values.get(key));
    }

    private static int integer(Map<ConfigKey, Object> values, ConfigKey key) {
        return (Integer) values.get(key);
    }

    private static void readFile(Path path, Map<String, Setting> settings, Map<String, String> kafkaProperties,
                                 List<String> problems) {
        Node root;
        try (Reader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            root = new Yaml(new LoaderOptions()).compose(reader);
        } catch (MarkedYAMLException e) {
            problems.add(path + " line " + (e.getProblemMark().getLine() + 1) + ", column "
                + (e.getProblemMark().getColumn() + 1) + ": not valid YAML: " + e.getProblem());
            return;
        } catch (IOException e) {
            problems.add("config file " + path + " cannot be read: " + e.getMessage()
                + " (check the path given to --config)");
            return;
        }
        if (root == null) {
            return;
        }
        if (!(root instanceof MappingNode)) {
            problems.add(path + " line " + (root.getStartMark().getLine() + 1) + ": the config must be a YAML map");
            return;
        }
        flatten(path, "", (MappingNode) root, settings, kafkaProperties, problems);
    }

    private static void flatten(Path path, String prefix, MappingNode map, Map<String, Setting> settings,
                                Map<String, String> kafkaProperties, List<String> problems) {
        for (NodeTuple tuple : map.getValue()) {
            String where = path.getFileName() + " line " + (tuple.getKeyNode().getStartMark().getLine() + 1);
            if (!(tuple.getKeyNode() instanceof ScalarNode)) {
                problems.add(where + ": keys must be plain strings");
                continue;
            }
            String name = prefix + ((ScalarNode) tuple.getKeyNode()).getValue();
            Node value = tuple.getValueNode();
            if (value instanceof MappingNode) {
                flatten(path, name + ".", (MappingNode) value, settings, kafkaProperties, problems);
            } else if (value instanceof SequenceNode sequence && LIST_KEYS.contains(name)) {
                settings.put(name, new Setting(listValue(name, sequence), where));
            } else if (!(value instanceof ScalarNode)) {
                problems.add(name + " (" + where + "): expected a single value, not a list");
            } else if (name.startsWith(ConfigKeys.KAFKA_PROPERTIES_PREFIX)) {
                kafkaProperties.put(name.substring(ConfigKeys.KAFKA_PROPERTIES_PREFIX.length()),
                    ((ScalarNode) value).getValue());
            } else if (!ConfigKeys.BY_NAME.containsKey(name)) {
                problems.add(name + " (" + where + "): unknown key" + suggestion(name));
            } else {
                settings.put(name, new Setting(((ScalarNode) value).getValue(), where));
            }
        }
    }

    private static void readEnvironment(Map<String, String> environment, Map<String, Setting> settings,
                                        Map<String, String> kafkaProperties, List<String> problems) {
        Map<String, ConfigKey> byVariable = new LinkedHashMap<>();
        ConfigKeys.ALL.forEach(key -> byVariable.put(key.environmentVariable(), key));
        new TreeMap<>(environment).forEach((variable, value) -> {
            if (!variable.startsWith(ENV_PREFIX) || variable.startsWith(TEST_ENV_PREFIX)
                || PROCESS_VARIABLES.contains(variable)) {
                return;
            }
            ConfigKey key = byVariable.get(variable);
            if (key != null) {
                settings.put(key.name(), new Setting(value, "environment variable " + variable));
            } else if (variable.startsWith(KAFKA_PROPERTIES_ENV)) {
                kafkaProperties.put(variable.substring(KAFKA_PROPERTIES_ENV.length()).toLowerCase(Locale.ROOT)
                    .replace('_', '.'), value);
            } else {
                problems.add("environment variable " + variable + ": not a Tributary setting"
                    + suggestion(variable.substring(ENV_PREFIX.length()).toLowerCase(Locale.ROOT).replace('_', '.')));
            }
        });
    }

    private static String suggestion(String name) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : ConfigKeys.BY_NAME.keySet()) {
            int distance = editDistance(name, candidate);
            if (distance < bestDistance) {
                bestDistance = distance;
                best = candidate;
            }
        }
        return best != null && bestDistance <= Math.max(2, name.length() / 3) ? "; did you mean '" + best + "'?"
            : "; known keys: " + String.join(", ", ConfigKeys.BY_NAME.keySet().stream().sorted().toList())
                + ", kafka.properties.*";
    }

    private static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
