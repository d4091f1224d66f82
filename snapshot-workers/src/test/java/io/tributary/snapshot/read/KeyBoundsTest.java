package io.tributary.snapshot.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.topics.messages.KeyValues;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class KeyBoundsTest {

    @Test
    void scalarsKeepTheirCanonicalText() {
        assertThat(KeyBounds.texts(KeyValues.of("[\"t \\\"1\\\" é\",42,1.50,-1e+21,true,null]")))
            .isEqualTo(Arrays.asList("t \"1\" é", "42", "1.50", "-1e+21", "true", null));
    }

    @Test
    void aNumericKeyKeepsEveryDigit() {
        String digits = "9".repeat(131_072);

        assertThat(KeyBounds.texts(KeyValues.of("[\"t\"," + digits + "]"))).containsExactly("t", digits);
    }

    @Test
    void nestedValuesAreNotBounds() {
        assertThatThrownBy(() -> KeyBounds.texts(KeyValues.of("[[1,2]]")))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("never split");
    }

    @Test
    void trailingContentIsRejected() {
        assertThatThrownBy(() -> KeyBounds.texts(KeyValues.of("[1]]")))
            .isInstanceOf(IllegalArgumentException.class);
    }
}
