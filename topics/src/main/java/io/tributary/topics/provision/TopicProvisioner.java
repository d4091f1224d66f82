package io.tributary.topics.provision;

import io.tributary.topics.TopicLayout;
import io.tributary.topics.TopicNames;
import io.tributary.topics.TopicSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Creates the topics of a deployment if missing and verifies existing ones, through the Kafka {@link Admin}.
 *
 * <p>Idempotent and safe to run concurrently from every process at start-up: a topic created by a racing
 * provisioner ({@code TopicExistsException}) counts as existing, and every topic, created or found, is then
 * verified against the layout: its partition count and its {@code cleanup.policy} (exactly {@code delete} or
 * exactly {@code compact}, see {@link io.tributary.topics.TopicRole#cleanupPolicy()}). Any difference fails with a
 * {@link TopicMismatchException} listing each topic, what was expected, what was found and how to fix it. Other
 * configs (retention, compaction lag) are only set at creation, never altered. Nothing is ever deleted.
 *
 * <p>It returns only once the leader of every partition serves it (a {@code ListOffsets} per partition
 * succeeds). Start producers after it returns: an idempotent producer that pipelines requests to a partition
 * whose leader has not applied its creation yet can have its first batch rejected ({@code NOT_LEADER_OR_FOLLOWER})
 * while a later batch is accepted, after which the first batch fails forever with
 * {@code OUT_OF_ORDER_SEQUENCE_NUMBER} and its records are lost (KAFKA-15591; seen on this project's broker).
 */
public final class TopicProvisioner {

    /** How long {@link #ensure(Admin, TopicNames, TopicLayout)} waits for the cluster. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    private static final long FIRST_BACKOFF_MS = 50;
    private static final long MAX_BACKOFF_MS = 1_000;

    private TopicProvisioner() {
    }

    /** {@link #ensure(Admin, TopicNames, TopicLayout, Duration)} with {@link #DEFAULT_TIMEOUT}. */
    public static ProvisionResult ensure(Admin admin, TopicNames names, TopicLayout layout) {
        return ensure(admin, names, layout, DEFAULT_TIMEOUT);
    }

    /**
     * Makes every topic of {@code names} exist as {@code layout} says.
     *
     * @throws TopicMismatchException      if an existing topic differs from the layout
     * @throws TopicProvisioningException  if the cluster refuses or does not answer within {@code timeout}
     */
    public static ProvisionResult ensure(Admin admin, TopicNames names, TopicLayout layout, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<String, TopicSpec> specs = layout.specs(names).stream()
            .collect(Collectors.toMap(TopicSpec::name, Function.identity(), (a, b) -> a, LinkedHashMap::new));
        Set<String> present = existingTopics(admin, specs.keySet(), deadline);
        List<String> created = new ArrayList<>();
        List<String> existing = new ArrayList<>();
        List<TopicSpec> missing = new ArrayList<>();
        for (TopicSpec spec : specs.values()) {
            if (present.contains(spec.name())) {
                existing.add(spec.name());
            } else {
                missing.add(spec);
            }
        }
        if (!missing.isEmpty()) {
            Map<String, KafkaFuture<Void>> results = admin.createTopics(
                missing.stream().map(TopicSpec::toNewTopic).collect(Collectors.toList())).values();
            for (TopicSpec spec : missing) {
                try {
                    await(results.get(spec.name()), deadline, "create topic " + spec.name());
                    created.add(spec.name());
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new TopicProvisioningException("Cannot create topic " + spec.name() + " ("
                            + spec.partitions() + " partitions, replication factor " + spec.replicationFactor()
                            + ", configs " + spec.configs() + "): " + e.getCause().getMessage(), e.getCause());
                    }
                    existing.add(spec.name());
                }
            }
        }
        verify(admin, specs, deadline);
        return new ProvisionResult(created, existing);
    }

    private static Set<String> existingTopics(Admin admin, Set<String> names, long deadline) {
        Set<String> present = new HashSet<>();
        for (Map.Entry<String, KafkaFuture<TopicDescription>> entry
                : admin.describeTopics(names).topicNameValues().entrySet()) {
            try {
                await(entry.getValue(), deadline, "describe topic " + entry.getKey());
                present.add(entry.getKey());
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw new TopicProvisioningException("Cannot describe topic " + entry.getKey() + ": "
                        + e.getCause().getMessage(), e.getCause());
                }
            }
        }
        return present;
    }

    private static void verify(Admin admin, Map<String, TopicSpec> specs, long deadline) {
        long backoff = FIRST_BACKOFF_MS;
        while (true) {
            try {
                Map<String, TopicDescription> descriptions = await(admin.describeTopics(specs.keySet())
                    .allTopicNames(), deadline, "describe topics " + specs.keySet());
                List<ConfigResource> resources = specs.keySet().stream()
                    .map(name -> new ConfigResource(ConfigResource.Type.TOPIC, name)).collect(Collectors.toList());
                Map<ConfigResource, Config> configs = await(admin.describeConfigs(resources).all(), deadline,
                    "describe configs of " + specs.keySet());
                List<TopicMismatch> mismatches = new ArrayList<>();
                for (TopicSpec spec : specs.values()) {
                    compare(spec, descriptions.get(spec.name()),
                        configs.get(new ConfigResource(ConfigResource.Type.TOPIC, spec.name())), mismatches);
                }
                if (!mismatches.isEmpty()) {
                    throw new TopicMismatchException(mismatches);
                }
                Map<TopicPartition, OffsetSpec> partitions = new HashMap<>();
                for (TopicDescription description : descriptions.values()) {
                    for (TopicPartitionInfo partition : description.partitions()) {
                        partitions.put(new TopicPartition(description.name(), partition.partition()),
                            OffsetSpec.latest());
                    }
                }
                await(admin.listOffsets(partitions).all(), deadline, "serve every partition of " + specs.keySet());
                return;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof RetriableException)) {
                    throw new TopicProvisioningException("Cannot verify topics " + specs.keySet() + ": "
                        + e.getCause().getMessage(), e.getCause());
                }
                if (System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(backoff) - deadline > 0) {
                    throw new TopicProvisioningException("Topics not yet served by the cluster at the deadline"
                        + " (created but not yet visible, without a leader, or being deleted): "
                        + e.getCause().getMessage(), e.getCause());
                }
                pause(backoff);
                backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
            }
        }
    }

    private static void compare(TopicSpec spec, TopicDescription description, Config config,
                                List<TopicMismatch> mismatches) {
        int partitions = description.partitions().size();
        if (partitions != spec.partitions()) {
            mismatches.add(new TopicMismatch(spec.name(), "partitions", Integer.toString(spec.partitions()),
                Integer.toString(partitions), Fixes.partitions(spec, partitions)));
        }
        ConfigEntry entry = config == null ? null : config.get(TopicConfig.CLEANUP_POLICY_CONFIG);
        String found = entry == null || entry.value() == null ? "" : entry.value();
        Set<String> policies = Arrays.stream(found.split(",")).map(String::trim).filter(s -> !s.isEmpty())
            .collect(Collectors.toSet());
        String expected = spec.role().cleanupPolicy();
        if (!policies.equals(Set.of(expected))) {
            mismatches.add(new TopicMismatch(spec.name(), TopicConfig.CLEANUP_POLICY_CONFIG, expected,
                found.isEmpty() ? "(none)" : found, Fixes.cleanupPolicy(spec)));
        }
    }

    private static <T> T await(KafkaFuture<T> future, long deadline, String what) throws ExecutionException {
        try {
            return future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new TopicProvisioningException("Timed out waiting for the cluster to " + what, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TopicProvisioningException("Interrupted while waiting for the cluster to " + what, e);
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TopicProvisioningException("Interrupted while waiting for topics to become visible", e);
        }
    }
}
