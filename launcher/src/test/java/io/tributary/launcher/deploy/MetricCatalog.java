package io.tributary.launcher.deploy;

import java.util.Set;

/**
 * The metrics dashboards, alert rules and autoscalers may query, by who serves them. The Tributary names are what
 * {@code /metrics} serves: RunProcessIT scrapes all of them from a process of every role, MultiProcessTopologyIT
 * those of each role from the compose topology's processes.
 */
public final class MetricCatalog {

    /** Served by every Tributary process (Micrometer gauges; the registry binds no JVM or process meters). */
    public static final Set<String> TRIBUTARY = Set.of("tributary_pending_snapshot_count",
        "tributary_active_snapshot_count", "tributary_total_stream_count", "tributary_active_stream_count",
        "tributary_snapshot_rows", "tributary_snapshot_chunks", "tributary_snapshot_failed_tables",
        "tributary_consumer_lag", "tributary_consumer_members");

    /** The unprefixed names of the autoscaling gauges, served as aliases of their {@code tributary_} names. */
    public static final Set<String> ALIASES = Set.of("pending_snapshot_count", "active_snapshot_count",
        "total_stream_count", "active_stream_count");

    /**
     * Served by the processes that run it: the replication slot (ingest), the storage writers (storage), the
     * replication lag (every run), the sync API (api).
     */
    public static final Set<String> TRIBUTARY_BY_ROLE = Set.of("tributary_replication_lag_seconds",
        "tributary_replication_slot_retained_wal_bytes", "tributary_replication_slot_confirmed_flush_lag_bytes",
        "tributary_replication_slot_active", "tributary_storage_write_seconds_bucket",
        "tributary_storage_write_seconds_count", "tributary_storage_write_seconds_sum",
        "tributary_storage_dead_letters_total", "tributary_storage_retries_total", "tributary_storage_ops_total",
        "tributary_storage_records_total", "tributary_api_streams_open", "tributary_api_ops_sent_total",
        "tributary_api_shared_ops_sent_total", "tributary_api_slow_clients_cut_off_total",
        "tributary_api_checkpoint_delivery_seconds_bucket", "tributary_api_checkpoint_delivery_seconds_count",
        "tributary_api_checkpoint_delivery_seconds_sum");

    /** Served by kafka-exporter (danielqsj/kafka-exporter), when one runs. */
    public static final Set<String> KAFKA_EXPORTER = Set.of("kafka_consumergroup_lag", "kafka_consumergroup_lag_sum",
        "kafka_consumergroup_members", "kafka_consumergroup_current_offset", "kafka_topic_partition_current_offset");

    /** Recorded by Prometheus itself for every scrape target. */
    public static final Set<String> PROMETHEUS = Set.of("up");

    private MetricCatalog() {
    }

    /** Whether anyone serves {@code metric}. */
    public static boolean known(String metric) {
        return TRIBUTARY.contains(metric) || ALIASES.contains(metric) || TRIBUTARY_BY_ROLE.contains(metric)
            || KAFKA_EXPORTER.contains(metric) || PROMETHEUS.contains(metric);
    }
}
