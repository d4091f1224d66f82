package io.tributary.launcher.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ConfigDocsTest {

    @Test
    void everyKeyIsDocumented() throws Exception {
        String docs = Files.readString(Path.of("..", "docs", "configuration.md"));

        for (ConfigKey key : ConfigKeys.ALL) {
            assertThat(docs).as("docs/configuration.md documents " + key.name()).contains("| `" + key.name() + "` |");
        }
    }
}
