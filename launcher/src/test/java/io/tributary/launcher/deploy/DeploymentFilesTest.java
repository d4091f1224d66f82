package io.tributary.launcher.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.tributary.launcher.config.ConfigException;
import io.tributary.launcher.config.ConfigLoader;
import io.tributary.launcher.config.TributaryConfig;
import io.tributary.launcher.deploy.KubernetesManifests.Manifest;
import io.tributary.launcher.deploy.PromQl.LabelMatcher;
import io.tributary.launcher.env.Role;
import io.tributary.snapshot.SnapshotWorkerConfig;
import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.stream.StreamWorkerConfig;
import io.tributary.syncrules.SyncRules;
import io.tributary.topics.TopicNames;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The deployment files (docker-compose.yml, the Dockerfile, deploy/k8s, the Grafana dashboard) checked against
 * the launcher they deploy, without a Docker engine or a cluster: every environment passes the launcher's own
 * configuration validation, every role is a real role, health checks ask the metrics port, consumer group
 * names are the ones the launcher creates, and every metric a dashboard or autoscaler queries is served.
 */
class DeploymentFilesTest {

    private static final Path ROOT = RepositoryFiles.root();
    private static final ComposeFile COMPOSE = ComposeFile.repository();
    private static final KubernetesManifests K8S = KubernetesManifests.repository();
    private static final Set<Role> SCALABLE_ROLES = Set.of(Role.INGEST, Role.REPLICATION_SNAPSHOT,
        Role.REPLICATION_STREAMING, Role.STORAGE, Role.API);
    private static final String SYNC_RULES_VARIABLE = "TRIBUTARY_SYNC_RULES";

    @Test
    void composeTributaryServicesPassTheLaunchersConfigValidation() {
        assertThat(COMPOSE.tributaryServices()).isNotEmpty();
        for (ComposeService service : COMPOSE.tributaryServices()) {
            TributaryConfig config = config("compose service " + service.name(), service.environment());
            assertThat(config.source()).as("%s names its source (else it embeds one)", service.name()).isPresent();
            assertThat(config.storage()).as("%s names its storage", service.name()).isPresent();
            assertThat(config.kafka().bootstrapServers()).as("%s names its Kafka", service.name()).isPresent();
        }
    }

    @Test
    void composeRunsEachScalableRoleAsItsOwnService() {
        Map<Role, String> services = COMPOSE.tributaryServices().stream()
            .collect(Collectors.toMap(ComposeService::role, ComposeService::name));
        assertThat(services).containsOnlyKeys(SCALABLE_ROLES);
        assertThat(services).containsEntry(Role.INGEST, "ingest")
            .containsEntry(Role.REPLICATION_SNAPSHOT, "snapshot-worker")
            .containsEntry(Role.REPLICATION_STREAMING, "stream-worker")
            .containsEntry(Role.STORAGE, "storage-writer")
            .containsEntry(Role.API, "api");
    }

    @Test
    void composeHealthChecksAskTheMetricsPortWhetherTheProcessIsReady() {
        for (ComposeService service : COMPOSE.tributaryServices()) {
            int port = config(service.name(), service.environment()).metricsPort();
            assertThat(service.healthcheck()).as(service.name())
                .contains("http://localhost:" + port + "/health/ready")
                .startsWith("CMD", "curl", "-fsS");
        }
    }

    @Test
    void composeTributaryServicesHaveNoFixedContainerNameOrHostPortSoTheyScale() {
        for (ComposeService service : COMPOSE.tributaryServices()) {
            assertThat(service.containerName()).as("container_name of %s", service.name()).isEmpty();
            if (service.role() != Role.API) {
                assertThat(service.ports()).as("host ports of %s", service.name()).isEmpty();
            }
        }
    }

    @Test
    void composeApiServesClientsOnTheHostWithTokensItCanVerify() {
        ComposeService api = COMPOSE.service("api");
        TributaryConfig config = config("compose service api", api.environment());
        assertThat(api.ports()).as("the api's one host port, its api.port")
            .containsExactly(config.api().port() + ":" + config.api().port());
        assertThat(config.api().auth().hasKeys()).as("client_auth keys (the api role refuses to start without)")
            .isTrue();
    }

    @Test
    void kubernetesApiIsServedByAServiceOnItsApiPort() {
        Manifest deployment = tributaryDeployments().stream().filter(d -> role(d) == Role.API).findFirst()
            .orElseThrow();
        TributaryConfig config = config(deployment.toString(), environment(deployment));
        assertThat(config.api().auth().hasKeys()).as("client_auth of %s", deployment).isTrue();
        assertThat(YamlTree.list(KubernetesManifests.containers(deployment).get(0), "ports"))
            .anySatisfy(entry -> assertThat(YamlTree.map(entry)).containsEntry("name", "http")
                .containsEntry("containerPort", config.api().port()));
        Manifest service = K8S.ofKind("Service").stream().filter(s -> s.name().equals(deployment.name()))
            .findFirst().orElseThrow();
        assertThat(YamlTree.list(service.spec(), "ports")).anySatisfy(entry -> assertThat(YamlTree.map(entry))
            .containsEntry("targetPort", "http"));
    }

    @Test
    void composeTributaryServicesStartOnceTheServicesTheirConfigNamesAreHealthy() {
        for (ComposeService service : COMPOSE.tributaryServices()) {
            TributaryConfig config = config(service.name(), service.environment());
            List<String> hosts = List.of(jdbcHost(config.source().orElseThrow().url()),
                jdbcHost(config.storage().orElseThrow().url()),
                config.kafka().bootstrapServers().orElseThrow().split(":")[0]);
            for (String host : hosts) {
                assertThat(COMPOSE.service(host).healthcheck()).as("health check of %s", host).isNotEmpty();
                assertThat(service.dependsOn()).as("%s waits for %s", service.name(), host)
                    .containsEntry(host, "service_healthy");
            }
        }
    }

    @Test
    void composeSourceDatabaseRunsWithLogicalReplication() {
        ComposeService ingest = COMPOSE.service("ingest");
        String host = jdbcHost(config("ingest", ingest.environment()).source().orElseThrow().url());
        assertThat(String.join(" ", COMPOSE.service(host).command())).contains("wal_level=logical")
            .contains("max_replication_slots=").contains("max_wal_senders=");
    }

    @Test
    void composeDeploysSyncRulesOnlyFromTheIngestServiceWithAValidMountedFile() throws Exception {
        for (ComposeService service : COMPOSE.tributaryServices()) {
            boolean ingest = service.role().parts().contains(Role.Part.INGEST);
            assertThat(service.environment().containsKey(SYNC_RULES_VARIABLE))
                .as("%s sets %s (only the single ingest may deploy)", service.name(), SYNC_RULES_VARIABLE)
                .isEqualTo(ingest);
        }
        ComposeService ingest = COMPOSE.service("ingest");
        Path rules = ingest.hostPathOf(ingest.environment().get(SYNC_RULES_VARIABLE), COMPOSE.directory())
            .orElseThrow(() -> new AssertionError("the ingest's sync rules file is not mounted"));
        assertThat(rules).isRegularFile();
        SyncRules.parse(Files.readString(rules));
    }

    @Test
    void composeBindMountsExistInTheRepository() {
        for (ComposeService service : COMPOSE.services().values()) {
            for (String volume : service.volumes()) {
                String source = volume.split(":")[0];
                if (source.startsWith(".")) {
                    assertThat(COMPOSE.directory().resolve(source)).as("%s mounts %s", service.name(), source)
                        .exists();
                }
            }
        }
    }

    @Test
    void dockerImageBuildsTheProductionDistributionInTwoLayersAndRunsIt() {
        String dockerfile = RepositoryFiles.read(ROOT.resolve("Dockerfile"));
        List<String> stages = dockerfile.lines().filter(line -> line.startsWith("FROM ")).toList();
        assertThat(stages).containsExactly("FROM ${BUILD_IMAGE} AS build", "FROM ${RUNTIME_IMAGE}");
        assertThat(dockerfile).contains("-pl distribution -am package").contains("-DskipTests")
            .contains("COPY --from=build /layers/tributary-dependencies.jar /app/lib/tributary-dependencies.jar")
            .contains("COPY --from=build /layers/tributary-application.jar /app/lib/tributary-application.jar")
            .contains("-cp /app/lib/tributary-application.jar:/app/lib/tributary-dependencies.jar "
                + "io.tributary.launcher.Main")
            .contains("apt-get install -y --no-install-recommends curl")
            .contains("EXPOSE " + config("the image's default", Map.of()).metricsPort());
        assertThat(dockerfile.lines().filter(line -> line.startsWith("ARG ") && line.contains("_IMAGE=")))
            .as("base images are build arguments, so a digest pins them in one place").hasSize(2)
            .allMatch(line -> line.matches("ARG [A-Z_]+_IMAGE=[a-z0-9./-]+:[a-z0-9.-]+@sha256:[0-9a-f]{64}"),
                "a tag pinned by its digest");
        assertThat(COMPOSE.tributaryServices()).allSatisfy(service ->
            assertThat(YamlTree.string(service.body(), "build")).contains("."));
    }

    @Test
    void dockerBuildContextKeepsEveryModuleTheBuildNeeds() {
        List<String> ignored = RepositoryFiles.read(ROOT.resolve(".dockerignore")).lines().map(String::strip)
            .filter(line -> !line.isEmpty() && !line.startsWith("#")).toList();
        List<String> needed = new ArrayList<>(List.of("pom.xml", ".mvn/maven.config"));
        for (String module : modules()) {
            needed.add(module + "/pom.xml");
            needed.add(module + "/src/main/java");
        }
        for (String path : needed) {
            assertThat(ignored).as("a .dockerignore pattern excluding %s", path)
                .noneMatch(pattern -> DockerIgnore.excludes(pattern, path));
        }
        assertThat(ignored).anyMatch(pattern -> DockerIgnore.excludes(pattern, "launcher/target/tributary.jar"));
    }

    @Test
    void kubernetesDeploymentsPassTheLaunchersConfigValidation() {
        for (Manifest deployment : tributaryDeployments()) {
            TributaryConfig config = config(deployment.toString(), environment(deployment));
            assertThat(config.source()).as("source of %s", deployment).isPresent();
            assertThat(config.storage()).as("storage of %s", deployment).isPresent();
            assertThat(config.kafka().bootstrapServers()).as("Kafka of %s", deployment).isPresent();
        }
    }

    @Test
    void kubernetesDeploymentsRunRealRolesWithProbesOnTheMetricsPort() {
        assertThat(tributaryDeployments().stream().map(DeploymentFilesTest::role))
            .contains(Role.ALL, Role.INGEST, Role.REPLICATION_SNAPSHOT, Role.REPLICATION_STREAMING, Role.STORAGE,
                Role.API);
        for (Manifest deployment : tributaryDeployments()) {
            Map<String, Object> container = KubernetesManifests.containers(deployment).get(0);
            int port = config(deployment.toString(), environment(deployment)).metricsPort();
            assertThat(YamlTree.list(container, "ports")).as("ports of %s", deployment)
                .anySatisfy(entry -> assertThat(YamlTree.map(entry)).containsEntry("name", "metrics")
                    .containsEntry("containerPort", port));
            for (String probe : List.of("startupProbe", "readinessProbe", "livenessProbe")) {
                Map<String, Object> get = YamlTree.map(YamlTree.map(container, probe), "httpGet");
                assertThat(get).as("%s of %s", probe, deployment).containsEntry("port", "metrics")
                    .containsEntry("path", probe.equals("livenessProbe") ? "/health/live" : "/health/ready");
            }
        }
    }

    @Test
    void kubernetesIngestRunsAsOneReplicaThatAloneDeploysTheSyncRules() {
        Set<String> scaled = K8S.ofKind("ScaledObject").stream()
            .map(object -> YamlTree.required(YamlTree.map(object.spec(), "scaleTargetRef"), "name"))
            .collect(Collectors.toSet());
        for (Manifest deployment : tributaryDeployments()) {
            boolean ingest = role(deployment).parts().contains(Role.Part.INGEST);
            Map<String, String> environment = environment(deployment);
            assertThat(environment.containsKey(SYNC_RULES_VARIABLE)).as("%s sets %s", deployment,
                SYNC_RULES_VARIABLE).isEqualTo(ingest);
            if (ingest) {
                assertThat(deployment.spec()).as(deployment.toString()).containsEntry("replicas", 1);
                assertThat(YamlTree.map(deployment.spec(), "strategy")).containsEntry("type", "Recreate");
                assertThat(scaled).as("autoscaled deployments").doesNotContain(deployment.name());
                assertSyncRulesMounted(deployment, environment.get(SYNC_RULES_VARIABLE));
            }
        }
    }

    @Test
    void kedaSnapshotWorkerTriggerReadsTheLaunchersSnapshotGroupAndTopic() {
        Manifest scaledObject = scaledObjectFor(Role.REPLICATION_SNAPSHOT).get(0);
        TributaryConfig config = targetConfig(scaledObject);
        TopicNames topics = new TopicNames(config.kafka().topicPrefix());
        Map<String, Object> trigger = triggers(scaledObject).get(0);
        Map<String, Object> metadata = YamlTree.map(trigger, "metadata");
        assertThat(trigger).containsEntry("type", "kafka");
        assertThat(metadata).containsEntry("consumerGroup", SnapshotWorkerConfig.consumerGroup(topics))
            .containsEntry("topic", topics.snapshotTasks())
            .containsEntry("bootstrapServers", config.kafka().bootstrapServers().orElseThrow());
    }

    @Test
    void kedaStorageWriterTriggersMatchTheLaunchersStorageWriterGroupsAndRows() {
        List<Manifest> scaledObjects = scaledObjectFor(Role.STORAGE);
        assertThat(scaledObjects).hasSizeGreaterThanOrEqualTo(2);
        for (Manifest scaledObject : scaledObjects) {
            TributaryConfig config = targetConfig(scaledObject);
            String prefix = config.kafka().topicPrefix();
            TopicNames topics = new TopicNames(prefix);
            for (Map<String, Object> trigger : triggers(scaledObject)) {
                Map<String, Object> metadata = YamlTree.map(trigger, "metadata");
                if (trigger.get("type").equals("kafka")) {
                    String group = YamlTree.required(metadata, "consumerGroup");
                    long id = Long.parseLong(group.substring(group.lastIndexOf("-g") + 2));
                    assertThat(group).isEqualTo(storageWriterGroup(id, prefix));
                    assertThat(metadata).containsEntry("topic", topics.rows())
                        .containsEntry("bootstrapServers", config.kafka().bootstrapServers().orElseThrow());
                } else {
                    assertThat(trigger).containsEntry("type", "prometheus");
                    String query = YamlTree.required(metadata, "query");
                    assertThat(PromQl.metricNames(query)).allMatch(MetricCatalog::known);
                    assertThat(PromQl.matchers(query, "topic")).extracting(LabelMatcher::value).isNotEmpty()
                        .containsOnly(topics.rows());
                    assertThat(query).as("an empty result must stay an error, not read as 0")
                        .doesNotContain("vector(0)");
                    assertThat(metadata).containsEntry("ignoreNullValues", "false");
                    Pattern groups = Pattern.compile(PromQl.matchers(query, "consumergroup").get(0).value());
                    assertThat(List.of(1L, 2L, 1234L)).allMatch(id ->
                        groups.matcher(storageWriterGroup(id, prefix)).matches());
                    assertThat(List.of(SnapshotWorkerConfig.consumerGroup(topics),
                        StreamWorkerConfig.applicationId(topics))).noneMatch(other -> groups.matcher(other).matches());
                }
            }
        }
    }

    @Test
    void kustomizationsReferenceExistingFilesAndObjects() {
        assertThat(K8S.kustomizations()).hasSizeGreaterThanOrEqualTo(6);
        for (Path kustomization : K8S.kustomizations()) {
            Kustomization.check(kustomization, K8S);
        }
    }

    @Test
    void grafanaDashboardQueriesOnlyMetricsTributaryOrKafkaExporterServe() {
        GrafanaDashboard dashboard = GrafanaDashboard.repository();
        assertThat(dashboard.title()).isEqualTo("Tributary");
        assertThat(dashboard.expressions()).isNotEmpty().doesNotContain("");
        assertThat(dashboard.metricNames()).allMatch(MetricCatalog::known)
            .containsAll(MetricCatalog.TRIBUTARY);
        assertThat(dashboard.panels().stream().map(panel -> panel.path("id").asInt()).distinct().count())
            .as("distinct panel ids").isEqualTo(dashboard.panels().size());
    }

    @Test
    void alertRulesQueryOnlyServedMetricsAndThePrometheusRuleHasTheSameGroups() {
        Map<String, Object> rules = RepositoryFiles.yamlMap(ROOT.resolve("deploy/prometheus/tributary-alerts.yaml"));
        List<Object> groups = YamlTree.list(rules, "groups");
        List<String> expressions = new ArrayList<>();
        for (Object group : groups) {
            for (Object rule : YamlTree.list(YamlTree.map(group), "rules")) {
                expressions.add(YamlTree.required(YamlTree.map(rule), "expr"));
            }
        }
        assertThat(expressions).hasSizeGreaterThanOrEqualTo(5);
        assertThat(expressions).flatMap(PromQl::metricNames).allMatch(MetricCatalog::known)
            .contains("tributary_replication_slot_retained_wal_bytes", "tributary_replication_lag_seconds",
                "tributary_storage_dead_letters_total", "tributary_storage_write_seconds_bucket");
        Manifest prometheusRule = K8S.ofKind("PrometheusRule").get(0);
        assertThat(YamlTree.list(YamlTree.map(prometheusRule.body(), "spec"), "groups")).isEqualTo(groups);
    }

    @Test
    void grafanaDashboardConsumerGroupsAreTheLaunchersGroups() {
        GrafanaDashboard dashboard = GrafanaDashboard.repository();
        String prefix = dashboard.variableDefaults().get("prefix");
        TopicNames topics = new TopicNames(prefix);
        Set<String> launcherGroups = Set.of(SnapshotWorkerConfig.consumerGroup(topics),
            StreamWorkerConfig.applicationId(topics), storageWriterGroup(1, prefix), storageWriterGroup(27, prefix));
        List<LabelMatcher> matchers = new ArrayList<>();
        for (String expression : dashboard.expressions()) {
            String query = dashboard.substituteDefaults(expression);
            matchers.addAll(PromQl.matchers(query, "consumergroup"));
            matchers.addAll(PromQl.matchers(query, "consumer_group"));
        }
        assertThat(matchers).isNotEmpty();
        for (LabelMatcher matcher : matchers) {
            if (matcher.operator().equals("=")) {
                assertThat(launcherGroups).as("groups of the launcher").contains(matcher.value());
            } else {
                Pattern pattern = Pattern.compile(matcher.value());
                assertThat(launcherGroups).as("groups matching %s", matcher.value())
                    .anyMatch(group -> pattern.matcher(group).matches());
            }
        }
    }

    private static TributaryConfig config(String where, Map<String, String> environment) {
        try {
            return ConfigLoader.load(Optional.empty(), environment);
        } catch (ConfigException e) {
            return fail(where + ": the launcher rejects its environment: " + e.getMessage());
        }
    }

    private static String jdbcHost(String jdbcUrl) {
        return URI.create(jdbcUrl.substring("jdbc:".length())).getHost();
    }

    private static String storageWriterGroup(long id, String prefix) {
        return new SyncRulesGroup(id, "", GroupState.PROCESSING, Optional.empty(), false).consumerGroup(prefix);
    }

    private static List<String> modules() {
        return Pattern.compile("<module>([^<]+)</module>").matcher(RepositoryFiles.read(ROOT.resolve("pom.xml")))
            .results().map(result -> result.group(1)).toList();
    }

    private static List<Manifest> tributaryDeployments() {
        return K8S.ofKind("Deployment").stream().filter(deployment -> KubernetesManifests.containers(deployment)
            .stream().anyMatch(container -> String.valueOf(container.get("image")).startsWith("tributary"))).toList();
    }

    private static Map<String, String> environment(Manifest deployment) {
        return K8S.environment(KubernetesManifests.containers(deployment).get(0));
    }

    private static Role role(Manifest deployment) {
        List<String> args = YamlTree.list(KubernetesManifests.containers(deployment).get(0), "args").stream()
            .map(String::valueOf).toList();
        assertThat(args).as("args of %s", deployment).hasSize(3).startsWith("run", "--role");
        return Role.fromCliName(args.get(2));
    }

    private static Manifest deployment(String name) {
        return tributaryDeployments().stream().filter(deployment -> deployment.name().equals(name)).findFirst()
            .orElseThrow(() -> new AssertionError("No Tributary Deployment named " + name));
    }

    private static List<Manifest> scaledObjectFor(Role role) {
        List<Manifest> scaledObjects = K8S.ofKind("ScaledObject").stream()
            .filter(object -> role(deployment(target(object))) == role).toList();
        assertThat(scaledObjects).as("ScaledObjects of role %s", role.cliName()).isNotEmpty();
        return scaledObjects;
    }

    private static String target(Manifest scaledObject) {
        return YamlTree.required(YamlTree.map(scaledObject.spec(), "scaleTargetRef"), "name");
    }

    private static TributaryConfig targetConfig(Manifest scaledObject) {
        Manifest target = deployment(target(scaledObject));
        return config(target.toString(), environment(target));
    }

    private static List<Map<String, Object>> triggers(Manifest scaledObject) {
        return YamlTree.list(scaledObject.spec(), "triggers").stream().map(YamlTree::map).toList();
    }

    private static void assertSyncRulesMounted(Manifest deployment, String rulesPath) {
        Path rules = Path.of(rulesPath);
        Map<String, Object> container = KubernetesManifests.containers(deployment).get(0);
        String volume = YamlTree.list(container, "volumeMounts").stream().map(YamlTree::map)
            .filter(mount -> rules.getParent().toString().equals(mount.get("mountPath")))
            .map(mount -> YamlTree.required(mount, "name")).findFirst()
            .orElseThrow(() -> new AssertionError(deployment + " mounts nothing at " + rules.getParent()));
        Map<String, Object> pod = YamlTree.map(YamlTree.map(deployment.spec(), "template"), "spec");
        String configMap = YamlTree.list(pod, "volumes").stream().map(YamlTree::map)
            .filter(entry -> volume.equals(entry.get("name")))
            .map(entry -> YamlTree.required(YamlTree.map(entry, "configMap"), "name")).findFirst()
            .orElseThrow(() -> new AssertionError(deployment + ": volume " + volume + " is not a ConfigMap"));
        Path file = Kustomization.generatedConfigMapFile(K8S, configMap, rules.getFileName().toString())
            .orElseThrow(() -> new AssertionError("No configMapGenerator makes " + configMap + " with "
                + rules.getFileName()));
        SyncRules.parse(RepositoryFiles.read(file));
    }
}
