package io.tributary.bench.direct;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CopyTextTest {

    @Test
    void plainTextIsUnchanged() {
        assertThat(CopyText.escape("{\"id\":1,\"owner\":\"u1\"}")).isEqualTo("{\"id\":1,\"owner\":\"u1\"}");
    }

    @Test
    void backslashesTabsAndLineBreaksAreEscaped() {
        assertThat(CopyText.escape("a\\\"b\tc\nd\re")).isEqualTo("a\\\\\"b\\tc\\nd\\re");
    }
}
