package io.tributary.topics.provision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.TopicLayout;
import io.tributary.topics.TopicNames;
import io.tributary.topics.TopicRole;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;

@RealServices
class TopicProvisionerIT {

    private static final TopicLayout LAYOUT = TopicLayout.of(4, 2, (short) 1)
        .withRetention(Duration.ofHours(6)).withRowsMinCompactionLag(Duration.ofMinutes(10));

    @Test
    void createsEveryTopicAsTheLayoutSays(TestServices services) throws Exception {
        TopicNames names = TopicNames.withPrefix(services.topicPrefix());
        try (Admin admin = Admin.create(services.kafkaProperties())) {
            ProvisionResult result = TopicProvisioner.ensure(admin, names, LAYOUT);

            assertThat(result.created()).containsExactlyElementsOf(names.all());
            Map<String, TopicDescription> topics = admin.describeTopics(names.all()).allTopicNames().get();
            for (TopicRole role : TopicRole.values()) {
                assertThat(topics.get(names.name(role)).partitions()).as(role.name())
                    .hasSize(LAYOUT.partitionsOf(role));
            }
            Config rows = config(admin, names.rows());
            assertThat(rows.get("cleanup.policy").value()).isEqualTo("compact");
            assertThat(rows.get("min.compaction.lag.ms").value()).isEqualTo("600000");
            assertThat(config(admin, names.changes()).get("retention.ms").value()).isEqualTo("21600000");
            assertThat(config(admin, names.ingestOffsets()).get("cleanup.policy").value()).isEqualTo("compact");
        }
    }

    @Test
    void secondRunCreatesNothingAndSucceeds(TestServices services) {
        TopicNames names = TopicNames.withPrefix(services.topicPrefix());
        try (Admin admin = Admin.create(services.kafkaProperties())) {
            TopicProvisioner.ensure(admin, names, LAYOUT);
            ProvisionResult again = TopicProvisioner.ensure(admin, names, LAYOUT);

            assertThat(again.created()).isEmpty();
            assertThat(again.existing()).containsExactlyElementsOf(names.all());
        }
    }

    @Test
    void concurrentProvisionersBothSucceedAndCreateEachTopicOnce(TestServices services) throws Exception {
        TopicNames names = TopicNames.withPrefix(services.topicPrefix());
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<Future<ProvisionResult>> runs = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Callable<ProvisionResult> run = () -> {
                    try (Admin admin = Admin.create(services.kafkaProperties())) {
                        return TopicProvisioner.ensure(admin, names, LAYOUT);
                    }
                };
                runs.add(pool.submit(run));
            }
            List<String> created = new ArrayList<>();
            for (Future<ProvisionResult> run : runs) {
                created.addAll(run.get(120, TimeUnit.SECONDS).created());
            }
            assertThat(created).containsExactlyInAnyOrderElementsOf(names.all());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void partitionCountMismatchFailsNamingTopicExpectedFoundAndFix(TestServices services) throws Exception {
        TopicNames names = TopicNames.withPrefix(services.topicPrefix());
        try (Admin admin = Admin.create(services.kafkaProperties())) {
            admin.createTopics(List.of(new NewTopic(names.rows(), 3, (short) 1)
                .configs(Map.of("cleanup.policy", "compact")))).all().get();

            assertThatThrownBy(() -> TopicProvisioner.ensure(admin, names, LAYOUT))
                .isInstanceOf(TopicMismatchException.class)
                .hasMessageContaining(names.rows())
                .satisfies(e -> assertThat(((TopicMismatchException) e).mismatches()).singleElement()
                    .satisfies(m -> {
                        assertThat(m.topic()).isEqualTo(names.rows());
                        assertThat(m.property()).isEqualTo("partitions");
                        assertThat(m.expected()).isEqualTo("4");
                        assertThat(m.found()).isEqualTo("3");
                        assertThat(m.fix()).contains("co-partitioned");
                    }));
        }
    }

    @Test
    void wrongCleanupPolicyFailsNamingTopicExpectedFoundAndFix(TestServices services) throws Exception {
        TopicNames names = TopicNames.withPrefix(services.topicPrefix());
        try (Admin admin = Admin.create(services.kafkaProperties())) {
            admin.createTopics(List.of(new NewTopic(names.rows(), 4, (short) 1)
                .configs(Map.of("cleanup.policy", "delete")))).all().get();

            assertThatThrownBy(() -> TopicProvisioner.ensure(admin, names, LAYOUT))
                .isInstanceOf(TopicMismatchException.class)
                .hasMessageContaining("topic '" + names.rows() + "': cleanup.policy is delete, expected compact")
                .hasMessageContaining("kafka-configs.sh");
        }
    }

    @Test
    void refusedCreationFailsNamingTheTopic(TestServices services) {
        TopicNames names = TopicNames.withPrefix(services.topicPrefix());
        TopicLayout impossible = TopicLayout.of(2, 1, (short) 100);
        try (Admin admin = Admin.create(services.kafkaProperties())) {
            assertThatThrownBy(() -> TopicProvisioner.ensure(admin, names, impossible))
                .isInstanceOf(TopicProvisioningException.class)
                .hasMessageContaining("Cannot create topic " + names.changes())
                .hasMessageContaining("replication factor 100");
        }
    }

    private static Config config(Admin admin, String topic) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        return admin.describeConfigs(List.of(resource)).all().get().get(resource);
    }
}
