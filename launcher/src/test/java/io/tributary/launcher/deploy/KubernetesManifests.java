package io.tributary.launcher.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Every Kubernetes object under {@code deploy/k8s} (all documents of all {@code *.yaml} files except the
 * kustomizations, which are listed apart), and the environment a container gets from them.
 */
public final class KubernetesManifests {

    private final List<Manifest> manifests;
    private final List<Path> kustomizations;

    private KubernetesManifests(List<Manifest> manifests, List<Path> kustomizations) {
        this.manifests = manifests;
        this.kustomizations = kustomizations;
    }

    /** One object and the file it is in. */
    public record Manifest(Path file, Map<String, Object> body) {

        public String kind() {
            return YamlTree.required(body, "kind");
        }

        public String name() {
            return YamlTree.required(YamlTree.map(body, "metadata"), "name");
        }

        public Map<String, Object> spec() {
            return YamlTree.map(body, "spec");
        }

        @Override
        public String toString() {
            return kind() + " " + name() + " (" + file.getFileName() + ")";
        }
    }

    /** Reads every manifest under {@code directory}. */
    public static KubernetesManifests load(Path directory) {
        List<Manifest> manifests = new ArrayList<>();
        List<Path> kustomizations = new ArrayList<>();
        for (Path file : yamlFiles(directory)) {
            if (file.getFileName().toString().equals("kustomization.yaml")) {
                kustomizations.add(file);
                continue;
            }
            for (Object document : RepositoryFiles.yamlDocuments(file)) {
                Map<String, Object> body = YamlTree.map(document);
                if (body.containsKey("kind")) {
                    manifests.add(new Manifest(file, body));
                }
            }
        }
        return new KubernetesManifests(manifests, kustomizations);
    }

    /** The repository's {@code deploy/k8s}. */
    public static KubernetesManifests repository() {
        return load(directory());
    }

    /** {@code deploy/k8s} of the repository. */
    public static Path directory() {
        return RepositoryFiles.root().resolve("deploy").resolve("k8s");
    }

    /** Every object of {@code kind}. */
    public List<Manifest> ofKind(String kind) {
        return manifests.stream().filter(manifest -> manifest.kind().equals(kind)).toList();
    }

    /** The objects of one file. */
    public List<Manifest> ofFile(Path file) {
        return manifests.stream().filter(manifest -> manifest.file().equals(file)).toList();
    }

    /** Every {@code kustomization.yaml}. */
    public List<Path> kustomizations() {
        return kustomizations;
    }

    /** The containers of a Deployment's pod template. */
    public static List<Map<String, Object>> containers(Manifest deployment) {
        Map<String, Object> pod = YamlTree.map(YamlTree.map(deployment.spec(), "template"), "spec");
        return YamlTree.list(pod, "containers").stream().map(YamlTree::map).toList();
    }

    /**
     * The environment a container starts with: {@code envFrom} ConfigMaps and Secrets (found by name among
     * every manifest), then its own {@code env} entries, which win as they do in Kubernetes.
     *
     * @throws IllegalArgumentException if a referenced ConfigMap, Secret or key does not exist
     */
    public Map<String, String> environment(Map<String, Object> container) {
        Map<String, String> environment = new LinkedHashMap<>();
        for (Object source : YamlTree.list(container, "envFrom")) {
            Map<String, Object> from = YamlTree.map(source);
            if (from.containsKey("configMapRef")) {
                environment.putAll(data("ConfigMap", YamlTree.required(YamlTree.map(from, "configMapRef"), "name")));
            } else if (from.containsKey("secretRef")) {
                environment.putAll(data("Secret", YamlTree.required(YamlTree.map(from, "secretRef"), "name")));
            }
        }
        for (Object entry : YamlTree.list(container, "env")) {
            Map<String, Object> variable = YamlTree.map(entry);
            String name = YamlTree.required(variable, "name");
            Optional<String> value = YamlTree.string(variable, "value");
            if (value.isPresent()) {
                environment.put(name, value.get());
                continue;
            }
            Map<String, Object> valueFrom = YamlTree.map(variable, "valueFrom");
            String kind = valueFrom.containsKey("secretKeyRef") ? "Secret" : "ConfigMap";
            Map<String, Object> ref = YamlTree.map(valueFrom,
                kind.equals("Secret") ? "secretKeyRef" : "configMapKeyRef");
            String key = YamlTree.required(ref, "key");
            String resolved = data(kind, YamlTree.required(ref, "name")).get(key);
            if (resolved == null) {
                throw new IllegalArgumentException(name + ": " + kind + " " + ref + " has no key " + key);
            }
            environment.put(name, resolved);
        }
        return environment;
    }

    private Map<String, String> data(String kind, String name) {
        Manifest manifest = manifests.stream().filter(m -> m.kind().equals(kind) && m.name().equals(name))
            .findFirst().orElseThrow(() -> new IllegalArgumentException("No " + kind + " named " + name));
        Map<String, String> data = new LinkedHashMap<>();
        YamlTree.map(manifest.body(), "data").forEach((key, value) -> data.put(key, kind.equals("Secret")
            ? new String(Base64.getDecoder().decode(String.valueOf(value)), StandardCharsets.UTF_8)
            : String.valueOf(value)));
        YamlTree.map(manifest.body(), "stringData").forEach((key, value) -> data.put(key, String.valueOf(value)));
        return data;
    }

    private static List<Path> yamlFiles(Path directory) {
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(Files::isRegularFile)
                .filter(file -> file.getFileName().toString().endsWith(".yaml"))
                .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + directory, e);
        }
    }
}
