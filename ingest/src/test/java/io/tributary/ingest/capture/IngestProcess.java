package io.tributary.ingest.capture;

import io.tributary.postgres.PgEndpoint;
import io.tributary.topics.TopicLayout;
import io.tributary.topics.TopicNames;
import io.tributary.topics.messages.TableId;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs an {@link IngestService} in its own JVM, so a test can kill it with SIGKILL mid-stream. Test support.
 *
 * <p>Arguments: jdbcUrl user password slot publication topicPrefix partitions bootstrapServers table
 * [extra Kafka client properties as {@code key=value} arguments].
 */
public final class IngestProcess {

    private IngestProcess() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> kafka = new HashMap<>();
        kafka.put("bootstrap.servers", args[7]);
        for (int i = 9; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            kafka.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        IngestConfig config = IngestConfig.of(PgEndpoint.of(args[0], args[1], args[2]), args[3], args[4],
                TopicNames.withPrefix(args[5]), TopicLayout.of(Integer.parseInt(args[6]), 1, (short) 1),
                kafka, TableSelection.of(Set.of(TableId.of("public", args[8]))))
            .withMaxRetryBackoff(Duration.ofSeconds(1));
        IngestService service = IngestService.create(config);
        service.start();
        service.awaitActive(Duration.ofSeconds(120));
        System.out.println("INGEST ACTIVE");
        Thread.currentThread().join();
    }

    /** Starts a JVM running {@link #main} with the test class path; its output goes to {@code log}. */
    static Process launch(IngestConfig config, String table, Path log) throws IOException {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classPath,
            IngestProcess.class.getName(), config.source().jdbcUrl(), config.source().user(),
            config.source().password(), config.slotName(), config.publicationName(), config.topics().prefix(),
            Integer.toString(config.layout().partitions()), config.kafkaProperties().get("bootstrap.servers"),
            table));
        config.kafkaProperties().forEach((key, value) -> {
            if (!"bootstrap.servers".equals(key)) {
                command.add(key + "=" + value);
            }
        });
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    static Path logFile(String name) {
        File dir = new File("target");
        return new File(dir.exists() ? dir : new File("."), name + ".log").toPath();
    }
}
