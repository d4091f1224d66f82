package io.tributary.stream.simulation;

import io.tributary.stream.StreamWorker;
import io.tributary.stream.StreamWorkerConfig;
import io.tributary.topics.TopicNames;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.streams.KafkaStreams;
import org.awaitility.Awaitility;

/**
 * A stream worker in its own JVM, so a test can kill it with SIGKILL: {@code main(bootstrap, topicPrefix,
 * stateDir)} starts one, prints {@value #RUNNING} once it runs, and runs until killed.
 */
public final class StreamWorkerProcess {

    /** The line printed once the worker is running. */
    public static final String RUNNING = "STREAM-WORKER-RUNNING";

    private StreamWorkerProcess() {
    }

    public static void main(String[] args) throws InterruptedException {
        StreamWorker worker = StreamWorker.start(new StreamWorkerConfig(Simulation.workerSettings(args[0]),
            TopicNames.withPrefix(args[1]), Path.of(args[2]), 1));
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> worker.state() == KafkaStreams.State.RUNNING);
        System.out.println(RUNNING);
        System.out.flush();
        new CountDownLatch(1).await();
    }

    /** Starts a worker process writing its output to {@code log}. */
    public static Process launch(String bootstrap, String topicPrefix, Path stateDir, Path log) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        return new ProcessBuilder(java, "-cp", classpath, StreamWorkerProcess.class.getName(), bootstrap,
            topicPrefix, stateDir.toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }
}
