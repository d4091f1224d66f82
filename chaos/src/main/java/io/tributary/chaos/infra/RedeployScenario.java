package io.tributary.chaos.infra;

import io.tributary.chaos.harness.PipelineSettings;
import io.tributary.chaos.harness.ProcessRole;
import io.tributary.chaos.run.Phase;
import io.tributary.chaos.workload.WorkloadSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * New sync rules are deployed while the first group's initial snapshot runs, with the launcher's own
 * {@code tributary deploy} command: the new group replays {@code rows} and must take over; the checks then hold
 * for it (its buckets against its own rules). The new rules add a bucket definition to the workload's rules.
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

    @Override
    public PipelineSettings processSettings(PipelineSettings direct) {
        this.settings = direct;
        return direct;
    }

    @Override
    public void inject(FaultContext context) throws IOException, InterruptedException {
        if (!context.awaitSnapshotRunning(context.between(Duration.ofSeconds(1), Duration.ofSeconds(3)))) {
            return;
        }
        Phase hit = context.phase();
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
