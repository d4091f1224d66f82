package io.tributary.launcher.run;

import io.tributary.launcher.config.ConfigLoader;
import io.tributary.launcher.config.TributaryConfig;
import io.tributary.launcher.env.SampleDataset;
import io.tributary.storage.schema.Migrations;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.TestServices;
import io.tributary.writer.lifecycle.Deployments;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.Map;
import java.util.Optional;

/**
 * A source with the sample dataset (5 users, 20 lists, 200 todos), a storage with the sample rules deployed as a
 * group, and a config file for both in {@code dir} (2 workers per process, chunks of 50 rows).
 *
 * @param source     the source database
 * @param storage    the storage database
 * @param configFile the config file
 * @param config     the config file, loaded
 * @param group      the deployed group's id
 */
record SampleDeployment(PostgresDatabase source, PostgresDatabase storage, Path configFile, TributaryConfig config,
                        long group) {

    static SampleDeployment create(TestServices services, Path dir) throws Exception {
        PostgresDatabase source = services.newDatabase();
        PostgresDatabase storage = services.newDatabase();
        try (Connection c = source.connect()) {
            new SampleDataset(5, 20, 200).load(c);
        }
        Path rules = Files.writeString(dir.resolve("rules.yaml"), SampleDataset.syncRules());
        Path configFile = TestConfigFile.write(dir, services, source, storage, rules, 2, 50);
        long group;
        try (Connection c = storage.connect()) {
            Migrations.migrate(c);
            group = Deployments.deploy(c, SampleDataset.syncRules()).id();
        }
        return new SampleDeployment(source, storage, configFile, ConfigLoader.load(Optional.of(configFile), Map.of()),
            group);
    }

    /** The config file pointed at new, empty topics (as a new Kafka cluster would be), loaded. */
    TributaryConfig onNewTopics(TestServices services) throws Exception {
        Files.writeString(configFile, Files.readString(configFile).replace("topic_prefix: " + services.topicPrefix(),
            "topic_prefix: " + services.topicPrefix() + "new."));
        return ConfigLoader.load(Optional.of(configFile), Map.of());
    }
}
