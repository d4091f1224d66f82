package io.tributary.launcher.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * One owner for each shared idea, checked over the production sources of every module: Jackson factories with
 * their limits are built in one place (canonical JSON), the source's WAL position is read by one class, and no
 * class name means two things in two modules.
 */
class SourceTreeTest {

    private static final Path ROOT = RepositoryFiles.root();
    private static final Path CANONICAL_JSON_FACTORY =
        Path.of("topics/src/main/java/io/tributary/topics/json/CanonicalJsonFactory.java");
    private static final Path CURRENT_WAL_POSITION =
        Path.of("postgres/src/main/java/io/tributary/postgres/CurrentWalPosition.java");
    /** Modules that measure or break the product and read its databases on connections of their own. */
    private static final Set<String> TOOLS = Set.of("bench", "chaos");
    private static final Pattern JSON_FACTORY = Pattern.compile("new JsonFactory\\(|JsonFactory\\.builder\\(");

    @Test
    void jacksonFactoriesAreBuiltOnlyWithTheCanonicalLimits() {
        assertThat(sourcesContaining(JSON_FACTORY)).containsExactly(CANONICAL_JSON_FACTORY);
    }

    @Test
    void theProductReadsTheCurrentWalPositionInOnePlace() {
        assertThat(sourcesContaining(Pattern.compile("pg_current_wal_lsn\\(\\)::text")))
            .filteredOn(path -> !TOOLS.contains(path.getName(0).toString()))
            .containsExactly(CURRENT_WAL_POSITION);
    }

    @Test
    void noProductionClassNameRepeatsAcrossModules() {
        Map<String, List<Path>> byName = productionSources().filter(path -> !path.endsWith("package-info.java"))
            .collect(Collectors.groupingBy(path -> path.getFileName().toString(), TreeMap::new,
                Collectors.toList()));
        byName.values().removeIf(paths -> paths.size() == 1);
        assertThat(byName).as("class names declared in more than one place").isEmpty();
    }

    private static List<Path> sourcesContaining(Pattern pattern) {
        return productionSources().filter(path -> pattern.matcher(RepositoryFiles.read(ROOT.resolve(path))).find())
            .toList();
    }

    /** Every {@code src/main/java} source file, relative to the repository root, in path order. */
    private static Stream<Path> productionSources() {
        try (Stream<Path> modules = Files.list(ROOT)) {
            List<Path> roots = modules.map(module -> module.resolve("src/main/java")).filter(Files::isDirectory)
                .sorted().toList();
            return roots.stream().flatMap(SourceTreeTest::javaFiles).map(ROOT::relativize).sorted();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Stream<Path> javaFiles(Path directory) {
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(file -> file.toString().endsWith(".java")).toList().stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
