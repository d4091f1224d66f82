package io.tributary.testing;

import io.tributary.embedded.EmbeddedKafka;
import io.tributary.embedded.EmbeddedPostgres;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.PostgreSQLContainer;
import org.testcontainers.kafka.KafkaContainer;

/**
 * One real Kafka and one real Postgres server for a whole test run, each from the first source that works:
 * external (environment variables), Testcontainers (Docker), embedded. Each starts on first use (a module
 * whose tests only need Postgres never starts a broker) and both are closed at the end of the run.
 * Thread-safe.
 */
final class ServiceStack implements ExtensionContext.Store.CloseableResource, AutoCloseable {

    static final String KAFKA_ENV = "TRIBUTARY_TEST_KAFKA_BOOTSTRAP_SERVERS";
    static final String POSTGRES_URL_ENV = "TRIBUTARY_TEST_POSTGRES_URL";
    static final String POSTGRES_USER_ENV = "TRIBUTARY_TEST_POSTGRES_USER";
    static final String POSTGRES_PASSWORD_ENV = "TRIBUTARY_TEST_POSTGRES_PASSWORD";

    private static final Logger LOG = LoggerFactory.getLogger(ServiceStack.class);

    private final Map<String, String> env;
    private final List<AutoCloseable> owned = new ArrayList<>();
    private Boolean docker;
    private String kafkaBootstrapServers;
    private PostgresServer postgres;

    private ServiceStack(Map<String, String> env) {
        this.env = Map.copyOf(env);
    }

    static ServiceStack start(Map<String, String> env) {
        return new ServiceStack(env);
    }

    synchronized String kafkaBootstrapServers() {
        if (kafkaBootstrapServers != null) {
            return kafkaBootstrapServers;
        }
        String kafka = env.get(KAFKA_ENV);
        if (kafka != null) {
            LOG.info("Tests use external Kafka at {}", kafka);
        } else if (dockerAvailable()) {
            KafkaContainer container = new KafkaContainer("apache/kafka:4.1.0");
            container.start();
            owned.add(container);
            kafka = container.getBootstrapServers();
            LOG.info("Tests use Testcontainers Kafka at {}", kafka);
        } else {
            EmbeddedKafka embedded = EmbeddedKafka.start();
            owned.add(embedded);
            kafka = embedded.bootstrapServers();
            LOG.info("Tests use embedded Kafka at {} (no Docker engine)", kafka);
        }
        kafkaBootstrapServers = kafka;
        return kafka;
    }

    synchronized PostgresServer postgres() {
        if (postgres != null) {
            return postgres;
        }
        PostgresServer server;
        if (env.get(POSTGRES_URL_ENV) != null) {
            server = PostgresServer.external(env.get(POSTGRES_URL_ENV),
                env.getOrDefault(POSTGRES_USER_ENV, "postgres"), env.getOrDefault(POSTGRES_PASSWORD_ENV, ""));
            LOG.info("Tests use external Postgres at {}", env.get(POSTGRES_URL_ENV));
        } else if (dockerAvailable()) {
            PostgreSQLContainer<?> container = new PostgreSQLContainer<>("postgres:17")
                .withCommand("postgres", "-c", "wal_level=logical", "-c", "max_replication_slots=64",
                    "-c", "max_wal_senders=64", "-c", "max_connections=300");
            container.start();
            owned.add(container);
            server = PostgresServer.external(container.getJdbcUrl(), container.getUsername(),
                container.getPassword());
            LOG.info("Tests use Testcontainers Postgres at {}", container.getJdbcUrl());
        } else {
            EmbeddedPostgres embedded = EmbeddedPostgres.start();
            owned.add(embedded);
            server = PostgresServer.external(embedded.jdbcUrl("postgres"), embedded.superuser(), "");
            LOG.info("Tests use embedded Postgres on port {} (no Docker engine)", embedded.port());
        }
        server.requireLogicalReplication();
        postgres = server;
        return server;
    }

    private boolean dockerAvailable() {
        if (docker == null) {
            try {
                docker = DockerClientFactory.instance().isDockerAvailable();
            } catch (RuntimeException e) {
                LOG.debug("No Docker engine: {}", e.getMessage());
                docker = false;
            }
        }
        return docker;
    }

    @Override
    public synchronized void close() throws Exception {
        for (int i = owned.size() - 1; i >= 0; i--) {
            owned.get(i).close();
        }
        owned.clear();
    }
}
