package io.tributary.topics.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.kafka.common.ClusterResource;
import org.junit.jupiter.api.Test;

class ClusterIdentityTest {

    @Test
    void theFirstClusterIsTheProducersAndOnlyAnotherOneIsAChange() {
        ClusterIdentity identity = new ClusterIdentity();
        identity.onUpdate(new ClusterResource(null));
        identity.onUpdate(new ClusterResource("a"));
        identity.onUpdate(new ClusterResource("a"));

        assertThat(identity.cluster()).contains("a");
        assertThat(identity.changed()).isFalse();
        identity.check("The test's producer");
        assertThat(identity.serialize("t", new byte[] {1, 2})).containsExactly(1, 2);
    }

    @Test
    void anotherClusterIsAChangeForGoodNamingBothAndTheFix() {
        ClusterIdentity identity = new ClusterIdentity();
        identity.onUpdate(new ClusterResource("a"));
        identity.onUpdate(new ClusterResource("b"));
        identity.onUpdate(new ClusterResource("a"));

        assertThat(identity.changed()).isTrue();
        assertThatThrownBy(() -> identity.check("The test's producer")).isInstanceOf(ClusterChangedException.class)
            .hasMessageContaining("The test's producer started on Kafka cluster a")
            .hasMessageContaining("now names cluster b").hasMessageContaining("restart the process");
    }
}
