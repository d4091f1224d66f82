package io.tributary.writer.apply;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OpCopyTest {

    @Test
    void copyTextEscapesBackslashTabAndLineBreaks() {
        StringBuilder out = new StringBuilder();
        OpCopy.escape(out, "a\\b\tc\nd\re\\.");

        assertThat(out.toString()).isEqualTo("a\\\\b\\tc\\nd\\re\\\\.");
    }
}
