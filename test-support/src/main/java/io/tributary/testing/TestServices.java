package io.tributary.testing;

import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.CommonClientConfigs;

/**
 * What one test method gets from {@link RealServices}: the shared Kafka and Postgres, and names that no other
 * test uses, so tests stay isolated while sharing the servers.
 */
public final class TestServices {

    private static final AtomicInteger NEXT_ID = new AtomicInteger();

    private final ServiceStack stack;
    private final String testId;
    private final int id;

    TestServices(ServiceStack stack, String testId) {
        this.stack = stack;
        this.testId = testId;
        this.id = NEXT_ID.incrementAndGet();
    }

    /** The {@code bootstrap.servers} of the shared broker. */
    public String kafkaBootstrapServers() {
        return stack.kafkaBootstrapServers();
    }

    /** A fresh copy of the client properties every Kafka client of a test needs ({@code bootstrap.servers}). */
    public Properties kafkaProperties() {
        Properties properties = new Properties();
        properties.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafkaBootstrapServers());
        return properties;
    }

    /** A topic name prefix no other test method uses, e.g. {@code it7.}. */
    public String topicPrefix() {
        return "it" + id + ".";
    }

    /** A lower-case identifier no other test uses, e.g. {@code orders_7_3}; usable as a SQL name. */
    public String uniqueName(String base) {
        return base + "_" + id + "_" + NEXT_ID.incrementAndGet();
    }

    /** A fresh, empty database on the shared server (logical replication available). */
    public PostgresDatabase newDatabase() {
        return stack.postgres().createDatabase(uniqueName("db"));
    }

    /** The shared Postgres server. */
    public PostgresServer postgres() {
        return stack.postgres();
    }

    @Override
    public String toString() {
        return "TestServices[" + testId + "]";
    }
}
