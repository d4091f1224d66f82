package io.tributary.launcher.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.launcher.deploy.KubernetesManifests.Manifest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Checks of {@code kustomization.yaml} files against what exists: resources, generated files, patch targets. */
final class Kustomization {

    private Kustomization() {
    }

    /** Asserts that everything {@code file} refers to exists. */
    static void check(Path file, KubernetesManifests manifests) {
        Map<String, Object> kustomization = RepositoryFiles.yamlMap(file);
        assertThat(kustomization).as(file.toString()).containsEntry("kind", "Kustomization");
        List<Manifest> objects = objects(file.getParent(), manifests);
        for (Object generator : YamlTree.list(kustomization, "configMapGenerator")) {
            for (Object entry : YamlTree.list(YamlTree.map(generator), "files")) {
                assertThat(file.getParent().resolve(source(String.valueOf(entry)))).as("generated from, in %s", file)
                    .isRegularFile();
            }
        }
        for (Object replicas : YamlTree.list(kustomization, "replicas")) {
            String name = YamlTree.required(YamlTree.map(replicas), "name");
            assertThat(objects).as("Deployment %s of the replicas of %s", name, file)
                .anyMatch(object -> object.kind().equals("Deployment") && object.name().equals(name));
        }
        for (Object patch : YamlTree.list(kustomization, "patches")) {
            Map<String, Object> target = YamlTree.map(YamlTree.map(patch), "target");
            assertThat(objects).as("target %s of a patch in %s", target, file)
                .anyMatch(object -> object.kind().equals(target.get("kind"))
                    && object.name().equals(target.get("name")));
        }
    }

    /**
     * The file a {@code configMapGenerator} of some kustomization makes key {@code key} of ConfigMap {@code name}
     * from.
     */
    static Optional<Path> generatedConfigMapFile(KubernetesManifests manifests, String name, String key) {
        for (Path file : manifests.kustomizations()) {
            for (Object generator : YamlTree.list(RepositoryFiles.yamlMap(file), "configMapGenerator")) {
                Map<String, Object> spec = YamlTree.map(generator);
                if (!name.equals(spec.get("name"))) {
                    continue;
                }
                for (Object entry : YamlTree.list(spec, "files")) {
                    String text = String.valueOf(entry);
                    String entryKey = text.contains("=") ? text.substring(0, text.indexOf('='))
                        : Path.of(text).getFileName().toString();
                    if (entryKey.equals(key)) {
                        return Optional.of(file.getParent().resolve(source(text)));
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** The objects a kustomization folder builds from its resources, folders followed. */
    private static List<Manifest> objects(Path folder, KubernetesManifests manifests) {
        Path file = folder.resolve("kustomization.yaml");
        assertThat(file).as("kustomization of " + folder).isRegularFile();
        List<Manifest> objects = new ArrayList<>();
        for (Object resource : YamlTree.list(RepositoryFiles.yamlMap(file), "resources")) {
            Path path = folder.resolve(String.valueOf(resource)).normalize();
            assertThat(path).as("resource %s of %s", resource, file).exists();
            if (Files.isDirectory(path)) {
                objects.addAll(objects(path, manifests));
            } else {
                objects.addAll(manifests.ofFile(path));
            }
        }
        return objects;
    }

    private static String source(String entry) {
        return entry.contains("=") ? entry.substring(entry.indexOf('=') + 1) : entry;
    }
}
