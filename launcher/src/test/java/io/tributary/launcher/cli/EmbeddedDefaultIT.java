package io.tributary.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The main job as the README runs it: no Kafka, source or storage configured, so all three are embedded, the
 * sample dataset and rules are loaded, and {@code --until-caught-up} ends with a summary. (The configuration
 * file only turns the metrics and API ports off, so parallel test JVMs cannot collide on them; convergence
 * against the reference evaluation is {@code EndToEndIT}'s job, on services it can inspect afterwards.) The
 * embedded services keep their data in {@code tributary-data} beside the configuration file, so a second run is a
 * restart.
 */
class EmbeddedDefaultIT {

    @TempDir
    Path dir;

    @Test
    void theEmbeddedDefaultCatchesUpAndSummarizes() throws Exception {
        Path config = Files.writeString(dir.resolve("tributary.yaml"), "metrics:\n  port: 0\napi:\n  port: 0\n");

        CommandLineHarness result = CommandLineHarness.run("run", "--config", config.toString(), "--until-caught-up");

        assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
        assertThat(result.out())
            .contains("Embedded source: loading the sample dataset (211000 rows)")
            .contains("Deployed sync rules as group 1")
            .containsPattern("Caught up in [0-9.]+ s: 211000 rows snapshotted from 3 tables .*sync rules group 1 "
                + "ACTIVE at checkpoint op_id [0-9]+, LSN [0-9A-F]+/[0-9A-F]+");
    }

    @Test
    void aSecondRunRestartsTheEmbeddedServicesOnTheirData() throws Exception {
        Path config = Files.writeString(dir.resolve("tributary.yaml"), "metrics:\n  port: 0\napi:\n  port: 0\n");
        CommandLineHarness first = CommandLineHarness.run("run", "--config", config.toString(), "--until-caught-up");
        assertThat(first.exitCode()).as(first.out() + first.err()).isZero();

        CommandLineHarness second = CommandLineHarness.run("run", "--config", config.toString(), "--until-caught-up");

        assertThat(second.exitCode()).as(second.out() + second.err()).isZero();
        assertThat(dir.resolve("tributary-data").resolve("kafka")).isDirectory();
        assertThat(dir.resolve("tributary-data").resolve("postgres")).isDirectory();
        assertThat(second.out())
            .as("the source, storage and Kafka of the first run, so nothing is loaded or deployed again")
            .doesNotContain("loading the sample dataset")
            .doesNotContain("Deployed sync rules")
            .containsPattern("Caught up in [0-9.]+ s: .*sync rules group 1 ACTIVE at checkpoint");
    }
}
