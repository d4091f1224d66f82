package io.tributary.testing.random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SeedsTest {

    private static final String PROPERTY = "tributary.seeds-test.seed";

    @AfterEach
    void clear() {
        System.clearProperty(PROPERTY);
    }

    @Test
    void aSeedPassedInIsTheSeedUsed() {
        System.setProperty(PROPERTY, " 424242 ");

        assertThat(Seeds.fromProperty(PROPERTY)).isEqualTo(424242L);
    }

    @Test
    void withoutThePropertyEachSeedIsFreshAndPositive() {
        long first = Seeds.fromProperty(PROPERTY);
        long second = Seeds.fromProperty(PROPERTY);

        assertThat(first).isPositive();
        assertThat(second).isPositive().isNotEqualTo(first);
    }

    @Test
    void aSeedThatIsNotANumberIsRejectedNamingTheProperty() {
        System.setProperty(PROPERTY, "abc");

        assertThatThrownBy(() -> Seeds.fromProperty(PROPERTY)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("-D" + PROPERTY);
    }

    @Test
    void thePrintedLineSaysHowToRepeat() {
        assertThat(Seeds.describe(PROPERTY, 7)).isEqualTo("seed 7 (repeat: -D" + PROPERTY + "=7)");
    }
}
