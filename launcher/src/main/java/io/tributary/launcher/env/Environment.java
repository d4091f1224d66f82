package io.tributary.launcher.env;

import io.tributary.embedded.EmbeddedKafka;
import io.tributary.embedded.EmbeddedPostgres;
import io.tributary.launcher.config.ConfigException;
import io.tributary.launcher.config.JdbcEndpoint;
import io.tributary.launcher.config.Secret;
import io.tributary.launcher.config.TributaryConfig;
import io.tributary.launcher.metrics.KafkaMetricsReporter;
import io.tributary.postgres.CurrentWalPosition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The services a process talks to, resolved from the configuration: each of Kafka, source and storage is the
 * configured one, or embedded when the configuration names none (embedded Postgres serves source and storage
 * as two databases of one server). Reachability is checked up front so a wrong address fails at start with
 * one clear message. Closing stops what was embedded.
 */
public final class Environment implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Environment.class);
    private static final Duration REACH_TIMEOUT = Duration.ofSeconds(15);

    private final String kafkaBootstrapServers;
    private final Properties kafkaClientProperties;
    private final JdbcEndpoint source;
    private final JdbcEndpoint storage;
    private final boolean embeddedSource;
    private final List<AutoCloseable> embedded;

    private Environment(String kafkaBootstrapServers, Properties kafkaClientProperties, JdbcEndpoint source,
                        JdbcEndpoint storage, boolean embeddedSource, List<AutoCloseable> embedded) {
        this.kafkaBootstrapServers = kafkaBootstrapServers;
        this.kafkaClientProperties = kafkaClientProperties;
        this.source = source;
        this.storage = storage;
        this.embeddedSource = embeddedSource;
        this.embedded = embedded;
    }

    /**
     * Starts what must be embedded and checks that what is configured answers, waiting for a service that is not
     * up yet as {@code wait} allows.
     *
     * @throws ServiceUnavailableException naming the service, its address and the config key to fix
     * @throws InterruptedException if interrupted while waiting for a service
     */
    public static Environment start(TributaryConfig config, StartupWait wait) throws InterruptedException {
        requireEmbeddedServicesIfUnconfigured(config);
        List<AutoCloseable> embedded = new ArrayList<>();
        try {
            if (config.source().isEmpty() || config.storage().isEmpty()) {
                embedded.add(EmbeddedPostgres.start(Optional.of(dataDirectory(config, "postgres"))));
            }
            JdbcEndpoint source = config.source().orElseGet(() -> embeddedDatabase(embeddedServer(embedded), "source"));
            JdbcEndpoint storage = config.storage()
                .orElseGet(() -> embeddedDatabase(embeddedServer(embedded), "storage"));
            String bootstrap = config.kafka().bootstrapServers().orElseGet(() -> {
                EmbeddedKafka kafka = EmbeddedKafka.start(Optional.of(dataDirectory(config, "kafka")));
                embedded.add(kafka);
                return kafka.bootstrapServers();
            });
            Properties kafkaProperties = new Properties();
            kafkaProperties.putAll(config.kafka().clientProperties());
            kafkaProperties.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            kafkaProperties.merge(CommonClientConfigs.METRIC_REPORTER_CLASSES_CONFIG,
                KafkaMetricsReporter.CLIENT_PROPERTY, (own, ours) -> own + "," + ours);
            Environment environment = new Environment(bootstrap, kafkaProperties, source, storage,
                config.source().isEmpty(), embedded);
            await(wait, "the source database at " + source.url(),
                () -> requireReachable("source", source, "source.url"));
            await(wait, "the storage database at " + storage.url(),
                () -> requireReachable("storage", storage, "storage.url"));
            if (config.kafka().bootstrapServers().isPresent()) {
                await(wait, "Kafka at " + bootstrap, () -> requireKafka(kafkaProperties, bootstrap));
            }
            return environment;
        } catch (RuntimeException | InterruptedException e) {
            closeAll(embedded);
            throw e;
        }
    }

    /** The folder of one embedded service under {@code embedded.data_dir}, created if absent. */
    private static Path dataDirectory(TributaryConfig config, String service) {
        Path directory = config.embeddedDataDir().resolve(service);
        try {
            return Files.createDirectories(directory);
        } catch (IOException e) {
            throw new ConfigException(List.of("embedded.data_dir: cannot create " + directory + " (" + e.getMessage()
                + "); set embedded.data_dir to a writable folder"));
        }
    }

    /**
     * The production distribution carries no embedded Kafka or Postgres: a configuration that leaves one of them
     * out is bad input there, named by its keys, instead of a missing class at start.
     */
    private static void requireEmbeddedServicesIfUnconfigured(TributaryConfig config) {
        List<String> missing = new ArrayList<>();
        if (config.source().isEmpty()) {
            missing.add("source.url");
        }
        if (config.storage().isEmpty()) {
            missing.add("storage.url");
        }
        if (config.kafka().bootstrapServers().isEmpty()) {
            missing.add("kafka.bootstrap_servers");
        }
        if (missing.isEmpty() || embeddedServicesPresent()) {
            return;
        }
        throw new ConfigException(missing.stream()
            .map(key -> key + ": not set, and this distribution has no embedded services to stand in (the embedded"
                + " default runs from the embedded/dev distribution, ./tributary)")
            .toList());
    }

    private static boolean embeddedServicesPresent() {
        try {
            Class.forName("io.tributary.embedded.EmbeddedKafka", false, Environment.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private static EmbeddedPostgres embeddedServer(List<AutoCloseable> embedded) {
        return embedded.stream().filter(EmbeddedPostgres.class::isInstance).map(EmbeddedPostgres.class::cast)
            .findFirst().orElseThrow();
    }

    private static JdbcEndpoint embeddedDatabase(EmbeddedPostgres server, String database) {
        server.createDatabase(database);
        return new JdbcEndpoint(server.jdbcUrl(database), server.superuser(), new Secret(""));
    }

    private static void await(StartupWait wait, String what, Runnable check) throws InterruptedException {
        try {
            wait.until(what, () -> {
                check.run();
                return null;
            });
        } catch (ServiceUnavailableException e) {
            if (wait.limit().isZero() || !StartupWait.isWorthWaitingFor(e)) {
                throw e;
            }
            throw new ServiceUnavailableException(e.getMessage() + wait.gaveUp(), e.getCause());
        } catch (InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("Unexpected failure while waiting for " + what, e);
        }
    }

    private static void requireReachable(String role, JdbcEndpoint endpoint, String key) {
        try (Connection ignored = connectOrFail(role, endpoint, key)) {
            LOG.debug("{} Postgres at {} answers", role, endpoint.url());
        } catch (SQLException e) {
            throw new ServiceUnavailableException("Closing a connection to " + endpoint.url() + " failed", e);
        }
    }

    /**
     * A new connection to a configured database; the caller closes it.
     *
     * @param role "source" or "storage", for the message
     * @param key the config key that names the database, for the message
     * @throws ServiceUnavailableException naming the database and what to check
     */
    public static Connection connectOrFail(String role, JdbcEndpoint endpoint, String key) {
        try {
            return connect(endpoint);
        } catch (SQLException e) {
            throw new ServiceUnavailableException("Cannot connect to the " + role + " database at " + endpoint.url()
                + " as " + endpoint.user() + ": " + e.getMessage() + " (check " + key + ", " + role + ".user and "
                + role + ".password, and that the server accepts connections)", e);
        }
    }

    /**
     * Properties of a short-lived admin client: {@code client} with request and API timeouts bounded, so a
     * command against an unreachable cluster fails in seconds, not minutes.
     */
    public static Properties adminProperties(Properties client) {
        Properties admin = new Properties();
        admin.putAll(client);
        admin.put(CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) REACH_TIMEOUT.toMillis());
        admin.put(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG, (int) REACH_TIMEOUT.toMillis());
        return admin;
    }

    private static void requireKafka(Properties properties, String bootstrap) {
        try (Admin client = Admin.create(adminProperties(properties))) {
            client.describeCluster().clusterId().get(REACH_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ServiceUnavailableException("Interrupted while reaching Kafka at " + bootstrap, e);
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            throw new ServiceUnavailableException("Cannot reach Kafka at " + bootstrap + " within "
                + REACH_TIMEOUT.toSeconds() + " s (check kafka.bootstrap_servers and kafka.properties.* such as "
                + "security.protocol)", e);
        }
    }

    /** A new connection to a configured database; the caller closes it. */
    public static Connection connect(JdbcEndpoint endpoint) throws SQLException {
        return endpoint.toPgEndpoint().connect(connectionProperties());
    }

    /** The current WAL position of a configured database, over a connection like {@link #connect}'s. */
    public static CurrentWalPosition walPosition(JdbcEndpoint endpoint) {
        return new CurrentWalPosition(endpoint.toPgEndpoint(), connectionProperties());
    }

    private static Properties connectionProperties() {
        Properties properties = new Properties();
        properties.put("loginTimeout", Long.toString(REACH_TIMEOUT.toSeconds()));
        properties.put("ApplicationName", "tributary");
        return properties;
    }

    public String kafkaBootstrapServers() {
        return kafkaBootstrapServers;
    }

    /** A fresh copy of the properties every Kafka client gets (bootstrap servers and pass-through settings). */
    public Properties kafkaClientProperties() {
        Properties copy = new Properties();
        copy.putAll(kafkaClientProperties);
        return copy;
    }

    public JdbcEndpoint source() {
        return source;
    }

    public JdbcEndpoint storage() {
        return storage;
    }

    /** Whether the source is the embedded one (the embedded default loads a sample dataset into it). */
    public boolean embeddedSource() {
        return embeddedSource;
    }

    @Override
    public void close() {
        closeAll(embedded);
    }

    private static void closeAll(List<AutoCloseable> resources) {
        for (int i = resources.size() - 1; i >= 0; i--) {
            try {
                resources.get(i).close();
            } catch (Exception e) {
                LOG.warn("Stopping {} failed: {}", resources.get(i).getClass().getSimpleName(), e.getMessage());
            }
        }
    }
}
