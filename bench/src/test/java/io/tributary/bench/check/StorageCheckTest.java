package io.tributary.bench.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class StorageCheckTest {

    @Test
    void anInstantReadsTheSameAsIsoOrAsPostgresText() {
        Instant expected = Instant.parse("2026-01-01T00:00:01.500Z");

        assertThat(StorageCheck.instant("2026-01-01T00:00:01.500000Z")).isEqualTo(expected);
        assertThat(StorageCheck.instant("2026-01-01 00:00:01.5+00")).isEqualTo(expected);
        assertThat(StorageCheck.instant("2026-01-01 02:00:01.5+02:00")).isEqualTo(expected);
    }
}
