package io.tributary.launcher.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md's reference table is the one {@link ConfigReference} generates from {@link ConfigKeys}.
 * {@code -Dtributary.config.reference=write} rewrites the doc instead of failing (the command docs/configuration.md
 * names).
 */
class ConfigReferenceTest {

    private static final Path DOC = Path.of("..", "docs", "configuration.md");

    @Test
    void theDocsTableIsGeneratedFromTheDeclaredKeys() throws Exception {
        String doc = Files.readString(DOC, StandardCharsets.UTF_8);
        String generated = ConfigReference.regenerate(doc);
        if ("write".equals(System.getProperty("tributary.config.reference")) && !generated.equals(doc)) {
            Files.writeString(DOC, generated, StandardCharsets.UTF_8);
            doc = generated;
        }
        assertThat(doc).as("docs/configuration.md is out of date with ConfigKeys; regenerate it with the command "
            + "it names").isEqualTo(generated);
    }

    @Test
    void everyKeyHasItsRowWithItsEnvironmentVariable() {
        String table = ConfigReference.table();
        for (ConfigKey key : ConfigKeys.ALL) {
            assertThat(table).contains("| `" + key.name() + "` | `" + key.environmentVariable() + "` |");
        }
        assertThat(table).contains("`kafka.properties.*`");
    }
}
