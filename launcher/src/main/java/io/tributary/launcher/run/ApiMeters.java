package io.tributary.launcher.run;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.tributary.api.http.ApiServer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The meters of the sync API of this process: open streams ({@code tributary_api_streams_open}), ops sent in data
 * lines and those taken from a checkpoint's shared read ({@code tributary_api_ops_sent},
 * {@code tributary_api_shared_ops_sent}), streams cut off as too slow, and checkpoint delivery latency
 * ({@code tributary_api_checkpoint_delivery_seconds}: from the checkpoint's publication in the process to a stream's
 * {@code checkpoint_complete}, a histogram from 1 ms to 1 min). Removed when closed.
 */
final class ApiMeters implements AutoCloseable {

    private final MeterRegistry registry;
    private final List<Meter> meters;

    private ApiMeters(MeterRegistry registry, List<Meter> meters) {
        this.registry = registry;
        this.meters = meters;
    }

    /** Registers the meters of {@code api}; none when {@code api} is null (the API is off). */
    static ApiMeters register(MeterRegistry registry, ApiServer api) {
        if (api == null) {
            return new ApiMeters(registry, List.of());
        }
        Timer delivery = Timer.builder("tributary_api_checkpoint_delivery")
            .description("from a checkpoint's publication in the api process to a stream's checkpoint_complete")
            .publishPercentileHistogram().minimumExpectedValue(Duration.ofMillis(1))
            .maximumExpectedValue(Duration.ofMinutes(1)).register(registry);
        api.counters().onCheckpointDelivered(nanos -> delivery.record(nanos, TimeUnit.NANOSECONDS));
        return new ApiMeters(registry, List.of(delivery,
            Gauge.builder("tributary_api_streams_open", api, ApiServer::activeStreams)
                .description("sync streams open in this process").register(registry),
            FunctionCounter.builder("tributary_api_ops_sent", api, a -> a.counters().opsSent())
                .description("bucket ops sent in data lines").register(registry),
            FunctionCounter.builder("tributary_api_shared_ops_sent", api, a -> a.counters().sharedOpsSent())
                .description("bucket ops sent from a checkpoint's read shared by the process's streams")
                .register(registry),
            FunctionCounter.builder("tributary_api_slow_clients_cut_off", api, ApiServer::slowClientsCutOff)
                .description("sync streams cut off because their client read too slowly").register(registry)));
    }

    @Override
    public void close() {
        meters.forEach(registry::remove);
    }
}
