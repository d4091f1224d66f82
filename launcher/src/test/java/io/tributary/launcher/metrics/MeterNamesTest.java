package io.tributary.launcher.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class MeterNamesTest {

    @Test
    void findsTheMetersOfANameAsTheRegistryAddsAndRemovesThem() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Counter before = registry.counter("kafka.consumer.records", "client_id", "a");
        MeterNames names = MeterNames.follow(registry);
        Counter after = registry.counter("kafka.consumer.records", "client_id", "b");
        registry.counter("kafka.consumer.bytes", "client_id", "a");

        assertThat(names.named("kafka.consumer.records")).containsExactlyInAnyOrder(before.getId(), after.getId());
        assertThat(names.named("kafka.producer.records")).isEmpty();

        registry.remove(before);
        assertThat(names.named("kafka.consumer.records")).containsExactly(after.getId());
        registry.remove(after);
        assertThat(names.named("kafka.consumer.records")).isEmpty();
        assertThat(names.named("kafka.consumer.bytes")).extracting(Meter.Id::getName)
            .containsExactly("kafka.consumer.bytes");
    }
}
