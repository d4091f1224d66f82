package io.tributary.chaos.run;

import io.tributary.postgres.PgEndpoint;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Where one run happens: a Kafka cluster and a topic prefix no other run uses, two fresh databases (source and
 * storage), a replication slot name, and a working directory for the rules file and the process logs.
 *
 * @param jar the runnable {@code tributary.jar} (see {@link io.tributary.chaos.harness.PipelineSettings#repositoryJar})
 */
public record RunEnvironment(String kafka, String topicPrefix, PgEndpoint source, PgEndpoint storage,
                             String slotName, Path directory, Path jar) {

    public RunEnvironment {
        Objects.requireNonNull(kafka, "kafka");
        Objects.requireNonNull(topicPrefix, "topicPrefix");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(storage, "storage");
        Objects.requireNonNull(slotName, "slotName");
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(jar, "jar");
    }
}
