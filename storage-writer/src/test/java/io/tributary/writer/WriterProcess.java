package io.tributary.writer;

import io.tributary.postgres.PgEndpoint;
import io.tributary.topics.TopicNames;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Properties;

/**
 * A storage writer in a JVM of its own, so a test can {@code kill -9} it: started by {@link #start} from the test
 * classpath, it runs until killed or until its stdin closes.
 */
public final class WriterProcess {

    private WriterProcess() {
    }

    /** Starts a writer process for {@code h}'s group with batches of {@code batchRecords} records. */
    static Process start(WriterHarness h, int batchRecords) throws Exception {
        String java = ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java");
        List<String> command = List.of(java, "-cp", System.getProperty("java.class.path"),
            WriterProcess.class.getName(), h.services.kafkaBootstrapServers(), h.names.prefix(), h.db.jdbcUrl(),
            h.db.user(), h.db.password(), Long.toString(h.groupId), Integer.toString(batchRecords),
            Base64.getEncoder().encodeToString(h.rules.getBytes(StandardCharsets.UTF_8)));
        File log = new File("target/writer-process-" + h.groupId + "-" + System.nanoTime() + ".log");
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log).start();
    }

    /** Arguments: bootstrap servers, topic prefix, JDBC URL, user, password, group id, batch size, rules (base64). */
    public static void main(String[] args) throws Exception {
        Properties kafka = new Properties();
        kafka.put("bootstrap.servers", args[0]);
        kafka.put("session.timeout.ms", "6000");
        kafka.put("heartbeat.interval.ms", "500");
        WriterConfig config = WriterConfig.of(kafka, TopicNames.withPrefix(args[1]),
            new PgEndpoint(args[2], args[3], args[4]), Long.parseLong(args[5]), new String(
                Base64.getDecoder().decode(args[7]), StandardCharsets.UTF_8), Integer.parseInt(args[6]), 1);
        try (StorageWriter writer = StorageWriter.start(config)) {
            while (System.in.read() >= 0) {
                if (writer.failure().isPresent()) {
                    break;
                }
            }
        }
    }
}
