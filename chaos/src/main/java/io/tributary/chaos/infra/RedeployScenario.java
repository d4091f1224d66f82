package io.tributary.chaos.infra;

import io.tributary.chaos.harness.PipelineSettings;
import io.tributary.chaos.harness.ProcessRole;
import io.tributary.chaos.run.Phase;
import io.tributary.chaos.workload.WorkloadSchema;
import io.tributary.topics.TopicNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;

/**
 * New sync rules are deployed while the first group's initial snapshot runs, with the launcher's own
 * {@code tributary deploy} command: the new group replays {@code rows} and must take over; the checks then hold
 * for it (its buckets against its own rules). The new rules add a bucket definition to the workload's rules. Right
 * before the deploy {@code rows} is set to compact eagerly, so the replay reads a log the cleaner compacts under it
 * (its first checkpoint must still be a real source state).
 */
public final class RedeployScenario implements InfraScenario {

    /** The workload's rules plus one more bucket definition. */
    public static final String NEW_RULES = WorkloadSchema.SYNC_RULES + """
          big_lines:
            data:
              - SELECT id, sku, qty FROM lines WHERE qty > 2
        """;
    private static final Duration DEPLOY_TIMEOUT = Duration.ofSeconds(90);

    private volatile PipelineSettings settings;

    @Override
    public String name() {
        return "redeploy-mid-snapshot";
    }

    /**
     * Makes the broker's cleaner compact {@code rows} while the new group replays it: small segments, any dirty
     * ratio, no lag, so older versions of rewritten keys and older barriers go away under the replay.
     */
    private void compactEagerly() throws InterruptedException {
        String rows = new TopicNames(settings.topicPrefix()).rows();
        try (Admin admin = settings.admin()) {
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, rows), List.of(
                set(TopicConfig.SEGMENT_MS_CONFIG, "500"), set(TopicConfig.MIN_CLEANABLE_DIRTY_RATIO_CONFIG, "0.001"),
                set(TopicConfig.MIN_COMPACTION_LAG_MS_CONFIG, "0")))).all().get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("Cannot make " + rows + " compact eagerly", e.getCause());
        }
    }

    private static AlterConfigOp set(String name, String value) {
        return new AlterConfigOp(new ConfigEntry(name, value), AlterConfigOp.OpType.SET);
    }

    @Override
    public void inject(FaultContext context) throws IOException, InterruptedException {
        settings = context.directSettings();
        if (!context.awaitSnapshotRunning(context.between(Duration.ofSeconds(1), Duration.ofSeconds(3)))) {
            return;
        }
        Phase hit = context.phase();
        compactEagerly();
        long before = context.newestGroup().map(g -> g.id()).orElse(0L);
        Path rules = context.directory().resolve("sync-rules-2.yaml");
        Files.writeString(rules, NEW_RULES);
        Path log = settings.logs().resolve("deploy.log");
        Files.createDirectories(settings.logs());
        ProcessBuilder deploy = new ProcessBuilder(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-XX:TieredStopAtLevel=1",
            "-jar", settings.jar().toAbsolutePath().toString(), "deploy", rules.toAbsolutePath().toString()))
            .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        deploy.environment().clear();
        deploy.environment().putAll(settings.environment(ProcessRole.STORAGE_WRITER, 0));
        Process process = deploy.start();
        if (!process.waitFor(DEPLOY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("tributary deploy did not finish within " + DEPLOY_TIMEOUT + "; see "
                + log);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException("tributary deploy exited with " + process.exitValue() + ": "
                + Files.readString(log));
        }
        long after = context.newestGroup().map(g -> g.id()).orElse(0L);
        context.injected("tributary deploy of new rules while group " + before + " snapshots: group " + after,
            Phase.SNAPSHOT, hit);
        if (after <= before) {
            throw new IllegalStateException("tributary deploy created no new group (newest is " + after + ")");
        }
    }
}
