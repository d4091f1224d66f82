package io.tributary.launcher.run;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.tributary.launcher.inspect.ConsumerGroupStatus;
import io.tributary.snapshot.SnapshotWorkerConfig;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.stream.StreamWorkerConfig;
import io.tributary.topics.TopicNames;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gauges of the deployment's consumer groups, refreshed every interval: {@code tributary_consumer_lag} and
 * {@code tributary_consumer_members}, tagged {@code consumer_group} with the Kafka consumer group's name
 * (snapshot workers, stream workers, the storage writers of every live sync rules group; a group that is no
 * longer live loses its gauges). The same numbers KEDA's Kafka scaler reads, for dashboards and autoscalers.
 */
final class LagGauges implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LagGauges.class);
    /** The tag naming the Kafka consumer group. */
    static final String GROUP_TAG = "consumer_group";

    private final Admin admin;
    private final MeterRegistry registry;
    private final TopicNames topics;
    private final Supplier<List<SyncRulesGroup>> groups;
    private final Map<String, ConsumerGroupStatus> latest = new ConcurrentHashMap<>();
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "lag-gauges");
        thread.setDaemon(true);
        return thread;
    });

    LagGauges(Properties kafka, MeterRegistry registry, TopicNames topics, Supplier<List<SyncRulesGroup>> groups) {
        this.admin = Admin.create(kafka);
        this.registry = registry;
        this.topics = topics;
        this.groups = groups;
    }

    void start(Duration interval) {
        scheduler.scheduleWithFixedDelay(this::refresh, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void refresh() {
        List<String> names = new ArrayList<>(List.of(SnapshotWorkerConfig.consumerGroup(topics),
            StreamWorkerConfig.applicationId(topics)));
        groups.get().stream().filter(group -> group.state().isLive())
            .map(group -> group.consumerGroup(topics.prefix())).forEach(names::add);
        latest.keySet().stream().filter(group -> !names.contains(group)).toList().forEach(gone -> {
            latest.remove(gone);
            registry.find("tributary_consumer_lag").tag(GROUP_TAG, gone).meters().forEach(registry::remove);
            registry.find("tributary_consumer_members").tag(GROUP_TAG, gone).meters().forEach(registry::remove);
        });
        try {
            for (ConsumerGroupStatus status : ConsumerGroupStatus.read(admin, names)) {
                if (latest.put(status.group(), status) == null) {
                    String group = status.group();
                    Gauge.builder("tributary_consumer_lag", latest, map -> map.get(group).lag())
                        .description("records of the group's input topics not yet consumed").tag(GROUP_TAG, group)
                        .register(registry);
                    Gauge.builder("tributary_consumer_members", latest, map -> map.get(group).members())
                        .description("live members of the consumer group").tag(GROUP_TAG, group).register(registry);
                }
            }
        } catch (RuntimeException e) {
            LOG.debug("Consumer groups not readable now: {}", e.toString());
        }
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        admin.close(Duration.ofSeconds(5));
    }
}
