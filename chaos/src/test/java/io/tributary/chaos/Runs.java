package io.tributary.chaos;

import io.tributary.chaos.harness.PipelineSettings;
import io.tributary.chaos.run.RunEnvironment;
import io.tributary.postgres.PgEndpoint;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.TestServices;
import io.tributary.testing.random.Seeds;
import java.nio.file.Path;
import java.time.LocalTime;

/** What the chaos tests share: the seed, fresh databases and run environments, and printing. */
public final class Runs {

    private Runs() {
    }

    /** {@code -Dchaos.seed=N}, else a random seed; printed either way. */
    public static long seed() {
        return Seeds.fromProperty("chaos.seed");
    }

    /** Fresh databases, topic prefix and slot on the shared services; logs under target/chaos/<name>-<slot>-<time>. */
    static RunEnvironment environment(TestServices services, String name) {
        PostgresDatabase source = services.newDatabase();
        PostgresDatabase storage = services.newDatabase();
        String slot = services.uniqueName("chaos");
        Path directory = Path.of("target", "chaos", name + "-" + slot + "-" + System.currentTimeMillis() / 1000);
        return new RunEnvironment(services.kafkaBootstrapServers(), services.topicPrefix() + slot + ".",
            endpoint(source), endpoint(storage), slot, directory, PipelineSettings.repositoryJar());
    }

    /** A run environment on {@code kafka}, with a fresh topic prefix and slot, using the given databases. */
    public static RunEnvironment environment(TestServices services, Path directory, String kafka, PgEndpoint source,
                                             PgEndpoint storage) {
        String slot = services.uniqueName("chaos");
        return new RunEnvironment(kafka, services.topicPrefix() + slot + ".", source, storage, slot, directory,
            PipelineSettings.repositoryJar());
    }

    /** A fresh database on the shared server. */
    public static PgEndpoint newDatabase(TestServices services) {
        return endpoint(services.newDatabase());
    }

    private static PgEndpoint endpoint(PostgresDatabase database) {
        return PgEndpoint.of(database.jdbcUrl(), database.user(), database.password());
    }

    /** Prints a line of a run with the time of day. */
    public static void print(String line) {
        System.out.println(LocalTime.now() + " " + line);
    }
}
