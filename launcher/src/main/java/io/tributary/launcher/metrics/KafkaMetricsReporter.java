package io.tributary.launcher.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.MetricsReporter;
import org.apache.kafka.common.utils.AppInfoParser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Binds the metrics of every Kafka client of the process (producers, consumers, admin clients and Kafka Streams,
 * with its threads, tasks and state stores) into the process's Micrometer registry, the way Micrometer's
 * {@code KafkaClientMetrics} and {@code KafkaStreamsMetrics} do, without handing the clients out of the stages
 * that own them: Kafka instantiates this reporter for each client whose {@code metric.reporters} names it
 * ({@link #CLIENT_PROPERTY}), and it follows that client's metrics as they come and go.
 *
 * <p>Names follow those binders: {@code kafka.<group without -metrics>.<name>}, dashes as dots (in Prometheus
 * {@code kafka_consumer_fetch_manager_records_lag_max}), tagged with the metric's own tags and
 * {@code kafka_version}. Only numeric metrics are bound, not the count of metrics itself; a series another client
 * of the process already bound, or a name another metric holds with other tag keys, is left out (Prometheus
 * requires one set of label names per metric). Thread-safe.
 */
public final class KafkaMetricsReporter implements MetricsReporter {

    /** The {@code metric.reporters} entry that attaches a Kafka client to the bound registry. */
    public static final String CLIENT_PROPERTY = KafkaMetricsReporter.class.getName();

    private static final Logger LOG = LoggerFactory.getLogger(KafkaMetricsReporter.class);
    private static final AtomicReference<Binding> BOUND = new AtomicReference<>();

    private final Map<MetricName, Meter> meters = new ConcurrentHashMap<>();
    private volatile MeterRegistry registry;
    private volatile MeterNames names;
    private volatile boolean closed;

    /** The registry clients report into, and its meters by name. */
    private record Binding(MeterRegistry registry, MeterNames names) {
    }

    /** Clients created from now on report into {@code target} (the process's registry). */
    public static void bindTo(MeterRegistry target) {
        BOUND.set(new Binding(target, MeterNames.follow(target)));
    }

    @Override
    public void configure(Map<String, ?> configs) {
        Binding binding = BOUND.get();
        if (binding != null) {
            names = binding.names();
            registry = binding.registry();
        }
    }

    @Override
    public void init(List<KafkaMetric> metrics) {
        metrics.forEach(this::metricChange);
    }

    @Override
    public synchronized void metricChange(KafkaMetric metric) {
        MeterRegistry target = registry;
        // A client's network thread may still add metrics while the client closes: once closed, none are bound.
        if (closed || target == null || metric.metricName().group().equals("kafka-metrics-count")
            || !(metric.metricValue() instanceof Number)) {
            return;
        }
        MetricName name = metric.metricName();
        List<Tag> tags = new ArrayList<>();
        name.tags().forEach((key, value) -> tags.add(Tag.of(key.replace('-', '_'), value)));
        tags.add(Tag.of("kafka_version", AppInfoParser.getVersion()));
        Meter previous = meters.remove(name);
        if (previous != null) {
            target.remove(previous);
        }
        String meterName = meterName(name);
        Set<String> keys = tags.stream().map(Tag::getKey).collect(Collectors.toSet());
        List<Tag> sorted = tags.stream().sorted().toList();
        for (Meter.Id other : names.named(meterName)) {
            List<Tag> otherTags = other.getTags();
            if (otherTags.equals(sorted)
                || !otherTags.stream().map(Tag::getKey).collect(Collectors.toSet()).equals(keys)) {
                // Another client bound this very series, or the name is held with other labels.
                return;
            }
        }
        try {
            meters.put(name, Gauge.builder(meterName, metric, KafkaMetricsReporter::value)
                .description(name.description()).tags(tags).register(target));
        } catch (IllegalArgumentException e) {
            LOG.debug("Kafka metric {} not bound: {}", name, e.getMessage());
        }
    }

    @Override
    public synchronized void metricRemoval(KafkaMetric metric) {
        Meter meter = meters.remove(metric.metricName());
        MeterRegistry target = registry;
        if (meter != null && target != null) {
            target.remove(meter);
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        MeterRegistry target = registry;
        if (target != null) {
            meters.values().forEach(target::remove);
        }
        meters.clear();
    }

    static String meterName(MetricName name) {
        return "kafka." + name.group().replace("-metrics", "").replace('-', '.') + "." + name.name().replace('-', '.');
    }

    private static double value(KafkaMetric metric) {
        return metric.metricValue() instanceof Number number ? number.doubleValue() : Double.NaN;
    }
}
