package io.tributary.chaos.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.chaos.harness.ProcessPipeline;
import io.tributary.chaos.harness.PipelineSettings;
import io.tributary.postgres.PgEndpoint;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class CombinedFaultsTest {

    private static final PgEndpoint SOURCE = PgEndpoint.of("jdbc:postgresql://127.0.0.1:5432/source", "u", "p");
    private static final PgEndpoint STORAGE = PgEndpoint.of("jdbc:postgresql://127.0.0.1:5432/storage", "u", "p");

    @Test
    void processSettingsApplyEveryPartsDerivationInTurn() {
        PgEndpoint proxiedSource = PgEndpoint.of("jdbc:postgresql://127.0.0.1:6001/source", "u", "p");
        PgEndpoint proxiedStorage = PgEndpoint.of("jdbc:postgresql://127.0.0.1:6002/storage", "u", "p");
        CombinedFaults combined = new CombinedFaults(List.of(new Part(s -> s.withSource(proxiedSource), null),
            new Part(s -> s.withStorage(proxiedStorage), null)));

        PipelineSettings settings = combined.processSettings(direct());

        assertThat(settings.source()).isEqualTo(proxiedSource);
        assertThat(settings.storage()).isEqualTo(proxiedStorage);
    }

    @Test
    void stopStopsEveryPartAndFailsNamingThoseThatFailed() {
        Part failing = new Part(UnaryOperator.identity(), new IllegalStateException("broker did not come back"));
        Part healthy = new Part(UnaryOperator.identity(), null);
        CombinedFaults combined = new CombinedFaults(List.of(failing, healthy));

        assertThatThrownBy(combined::stop).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("1 of 2").hasMessageContaining("broker did not come back");
        assertThat(failing.stopped).isTrue();
        assertThat(healthy.stopped).isTrue();
    }

    private static PipelineSettings direct() {
        return new PipelineSettings(Path.of("tributary.jar"), "127.0.0.1:9092", "t.", 4, SOURCE, STORAGE, "slot",
            Path.of("rules.yaml"), Map.of(), Path.of("logs"));
    }

    private static final class Part implements RunFaults {

        private final UnaryOperator<PipelineSettings> settings;
        private final RuntimeException failure;
        private boolean stopped;

        Part(UnaryOperator<PipelineSettings> settings, RuntimeException failure) {
            this.settings = settings;
            this.failure = failure;
        }

        @Override
        public PipelineSettings processSettings(PipelineSettings direct) {
            return settings.apply(direct);
        }

        @Override
        public void start(ProcessPipeline pipeline, CrashWatcher crashes) {
        }

        @Override
        public void stop() {
            stopped = true;
            if (failure != null) {
                throw failure;
            }
        }
    }
}
