package io.tributary.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.launcher.cli.RecoverCommand;
import io.tributary.launcher.config.TributaryConfig;
import io.tributary.launcher.env.Environment;
import io.tributary.launcher.env.Role;
import io.tributary.launcher.env.SampleDataset;
import io.tributary.launcher.env.StartupWait;
import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.stream.MergeInputLostException;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.testing.kafka.TopicRetention;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Kafka loses what ingest wrote while the stream workers were stopped. Ingest captured a delete, an update and an
 * insert; then retention removed those records from {@code changes}: the next run refuses to start the stream
 * workers, naming the loss and {@code tributary recover}; recover snapshots every table again, replacing its rows, and
 * moves the stream workers past the loss; the next run then serves the source as it is, the captured changes
 * included, from the same group. Or {@code ingest-offsets} was deleted (the engine's stored source offsets and the
 * newest barrier with it): the next run resumes from the replication slot, which confirms only what Kafka committed,
 * and serves the source exactly, changes made meanwhile included.
 */
@RealServices
class LostChangesIT {

    @TempDir
    Path dir;

    @Test
    void changesRemovedBeforeTheMergeReadThemStopTheRunAndRecoverBringsThemBack(TestServices services)
        throws Exception {
        SampleDeployment deployment = SampleDeployment.create(services, dir);
        PostgresDatabase source = deployment.source();
        Path configFile = deployment.configFile();
        TributaryConfig config = deployment.config();
        awaitActive(deployment, "a");

        captureWhileNoStreamWorkerRuns(config, source);
        try (Admin admin = Admin.create(services.kafkaProperties())) {
            TopicRetention.removeEveryRecord(admin, Pipeline.topics(config).changes());
        }

        try (Environment environment = Environment.start(config, StartupWait.NONE)) {
            assertThatThrownBy(() -> Pipeline.start(config, environment, Role.ALL,
                Files.createDirectory(dir.resolve("c")), new SimpleMeterRegistry(), StartupWait.NONE))
                .isInstanceOf(MergeInputLostException.class)
                .hasMessageContaining("removed unread")
                .hasMessageContaining("tributary recover --config FILE");
        }

        StringWriter out = new StringWriter();
        CommandLine recover = new CommandLine(new RecoverCommand());
        recover.setOut(new PrintWriter(out));
        assertThat(recover.execute("--config", configFile.toString())).as(out.toString()).isZero();
        assertThat(out.toString()).contains("Kafka lost records the stream workers had not merged",
            "is snapshotted again, replacing its rows");

        assertServesTheSource(deployment, "d");
    }

    @Test
    void anIngestOffsetsLogDeletedWhileIngestWasStoppedResumesFromTheSlotAndLosesNothing(TestServices services)
        throws Exception {
        SampleDeployment deployment = SampleDeployment.create(services, dir);
        TributaryConfig config = deployment.config();
        awaitActive(deployment, "a");
        captureWhileNoStreamWorkerRuns(config, deployment.source());
        try (Admin admin = Admin.create(services.kafkaProperties())) {
            String offsets = Pipeline.topics(config).ingestOffsets();
            admin.deleteTopics(List.of(offsets)).all().get();
            await(offsets + " deleted").atMost(Duration.ofSeconds(30))
                .until(() -> !admin.listTopics().names().get().contains(offsets));
        }
        try (Connection c = deployment.source().connect(); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE public.todos SET description = 'changed while ingest-offsets was gone' WHERE id"
                + " = 10");
        }

        assertServesTheSource(deployment, "b");
    }

    private void awaitActive(SampleDeployment deployment, String run) throws Exception {
        TributaryConfig config = deployment.config();
        try (Environment environment = Environment.start(config, StartupWait.NONE);
             Pipeline pipeline = Pipeline.start(config, environment, Role.ALL, Files.createDirectory(dir.resolve(run)),
                 new SimpleMeterRegistry(), StartupWait.NONE)) {
            await("group " + deployment.group() + " ACTIVE").atMost(Duration.ofSeconds(90))
                .until(() -> state(deployment.storage(), deployment.group()) == GroupState.ACTIVE);
        }
    }

    /** Runs ingest alone until it wrote a delete, an update and an insert to Kafka (the slot confirmed past them). */
    private void captureWhileNoStreamWorkerRuns(TributaryConfig config, PostgresDatabase source) throws Exception {
        try (Environment environment = Environment.start(config, StartupWait.NONE);
             Pipeline ingest = Pipeline.start(config, environment, Role.INGEST,
                 Files.createDirectory(dir.resolve("ingest")), new SimpleMeterRegistry(), StartupWait.NONE)) {
            String written;
            try (Connection c = source.connect(); Statement s = c.createStatement()) {
                s.executeUpdate("DELETE FROM public.todos WHERE id = 7");
                s.executeUpdate("UPDATE public.todos SET description = 'changed while no stream worker ran' WHERE id"
                    + " = 8");
                s.executeUpdate("INSERT INTO public.todos SELECT 100000, list_id, owner_id, 'inserted while no stream"
                    + " worker ran', false, priority, created_at FROM public.todos WHERE id = 9");
                written = lsn(s, "SELECT pg_current_wal_lsn()::text");
            }
            String slot = config.replication().slotName();
            await("the changes in Kafka (the slot confirmed past them)").atMost(Duration.ofSeconds(60)).until(() -> {
                try (Connection c = source.connect(); Statement s = c.createStatement()) {
                    return lsn(s, "SELECT (confirmed_flush_lsn >= '" + written + "'::pg_lsn)::text FROM"
                        + " pg_replication_slots WHERE slot_name = '" + slot + "'").equals("true");
                }
            });
            assertThat(ingest.problem()).isEmpty();
        }
    }

    /** Runs the whole pipeline until the deployment's group serves the source as it is now. */
    private void assertServesTheSource(SampleDeployment deployment, String run) throws Exception {
        TributaryConfig config = deployment.config();
        long group = deployment.group();
        try (Environment environment = Environment.start(config, StartupWait.NONE);
             Pipeline pipeline = Pipeline.start(config, environment, Role.ALL, Files.createDirectory(dir.resolve(run)),
                 new SimpleMeterRegistry(), StartupWait.NONE);
             Connection src = deployment.source().connect(); Connection st = deployment.storage().connect()) {
            Map<String, StorageContents.Bucket> expected = StorageContents.expected(src, SampleDataset.syncRules());
            await("group " + group + " serves the source").atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertThat(StorageContents.served(st, group)).isEqualTo(expected));
            assertThat(state(deployment.storage(), group)).isEqualTo(GroupState.ACTIVE);
            assertThat(pipeline.problem()).isEmpty();
        }
    }

    private static String lsn(Statement s, String query) throws Exception {
        try (ResultSet rs = s.executeQuery(query)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static GroupState state(PostgresDatabase storage, long id) throws Exception {
        try (Connection c = storage.connect()) {
            return SyncRulesGroups.find(c, id).orElseThrow().state();
        }
    }
}
