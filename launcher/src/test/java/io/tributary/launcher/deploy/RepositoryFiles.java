package io.tributary.launcher.deploy;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * The repository's deployment files as tests read them: found from the launcher module, where Maven runs the
 * tests, and parsed into plain maps and lists (YAML merge keys resolved).
 */
public final class RepositoryFiles {

    private RepositoryFiles() {
    }

    /** The repository root: the parent of the launcher module, holding {@code docker-compose.yml}. */
    public static Path root() {
        Path module = Path.of(System.getProperty("basedir", System.getProperty("user.dir"))).toAbsolutePath()
            .normalize();
        Path root = module.getFileName().toString().equals("launcher") ? module.getParent() : module;
        if (!Files.isRegularFile(root.resolve("docker-compose.yml"))) {
            throw new IllegalStateException("No docker-compose.yml in " + root + " (tests run from the launcher "
                + "module of the repository)");
        }
        return root;
    }

    /** Every document of a (multi-document) YAML file, skipping empty ones. */
    public static List<Object> yamlDocuments(Path file) {
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            List<Object> documents = new ArrayList<>();
            new Yaml(new LoaderOptions()).loadAll(reader).forEach(document -> {
                if (document != null) {
                    documents.add(document);
                }
            });
            return documents;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
    }

    /** A YAML file holding one map. */
    public static Map<String, Object> yamlMap(Path file) {
        List<Object> documents = yamlDocuments(file);
        if (documents.size() != 1 || !(documents.get(0) instanceof Map)) {
            throw new IllegalArgumentException(file + ": expected one YAML map, got " + documents.size()
                + " documents");
        }
        return YamlTree.map(documents.get(0));
    }

    /** A file's text. */
    public static String read(Path file) {
        try {
            return Files.readString(Objects.requireNonNull(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
    }
}
