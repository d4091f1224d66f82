package io.tributary.launcher.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/** deploy/k8s rendered by kubectl's own kustomize, as {@code kubectl apply -k} renders it, without a cluster. */
class KustomizeRenderingTest {

    private static final KubernetesManifests K8S = KubernetesManifests.repository();

    /**
     * Each kustomization as {@code kubectl apply -k} builds it (kubectl's own kustomize, no cluster): it renders,
     * and where a rendering holds the ConfigMaps and Secrets its Deployments read, every name a Deployment refers to
     * (generated names carry a content hash) is one of them.
     */
    @Test
    void everyKustomizationRendersAndItsDeploymentsReferToWhatItRenders() throws Exception {
        for (Path kustomization : K8S.kustomizations()) {
            Path dir = kustomization.getParent();
            Process kubectl = new ProcessBuilder("kubectl", "kustomize", dir.toString()).redirectErrorStream(true)
                .start();
            String rendered = new String(kubectl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(kubectl.waitFor(60, TimeUnit.SECONDS)).as("kubectl kustomize %s ends", dir).isTrue();
            assertThat(kubectl.exitValue()).as("kubectl kustomize %s:%n%s", dir, rendered).isZero();
            List<Map<String, Object>> objects = new ArrayList<>();
            new Yaml(new LoaderOptions()).loadAll(rendered).forEach(object -> objects.add(YamlTree.map(object)));
            assertThat(objects).as(dir.toString()).isNotEmpty().allSatisfy(object -> assertThat(object)
                .containsKeys("apiVersion", "kind", "metadata"));
            Set<String> configs = new TreeSet<>();
            for (Map<String, Object> object : objects) {
                if (List.of("ConfigMap", "Secret").contains(String.valueOf(object.get("kind")))) {
                    configs.add(object.get("kind") + "/" + YamlTree.required(YamlTree.map(object, "metadata"), "name"));
                }
            }
            if (configs.isEmpty()) {
                continue;
            }
            for (Map<String, Object> object : objects) {
                if (!"Deployment".equals(object.get("kind"))) {
                    continue;
                }
                Map<String, Object> pod = YamlTree.map(YamlTree.map(YamlTree.map(object, "spec"), "template"),
                    "spec");
                for (Object container : YamlTree.list(pod, "containers")) {
                    for (Object source : YamlTree.list(YamlTree.map(container), "envFrom")) {
                        Map<String, Object> from = YamlTree.map(source);
                        if (from.containsKey("configMapRef")) {
                            assertThat(configs).as("%s in %s", from, dir).contains("ConfigMap/"
                                + YamlTree.required(YamlTree.map(from, "configMapRef"), "name"));
                        }
                        if (from.containsKey("secretRef")) {
                            assertThat(configs).as("%s in %s", from, dir).contains("Secret/"
                                + YamlTree.required(YamlTree.map(from, "secretRef"), "name"));
                        }
                    }
                }
                for (Object volume : YamlTree.list(pod, "volumes")) {
                    Map<String, Object> spec = YamlTree.map(volume);
                    if (spec.containsKey("configMap")) {
                        assertThat(configs).as("%s in %s", spec, dir).contains("ConfigMap/"
                            + YamlTree.required(YamlTree.map(spec, "configMap"), "name"));
                    }
                }
            }
        }
    }

}
