package io.tributary.syncrules.internals.eval;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NamePatternTest {

    @Test
    void nameWithoutWildcardMatchesExactly() {
        NamePattern pattern = NamePattern.of("orders");

        assertThat(pattern.isWildcard()).isFalse();
        assertThat(pattern.matches("orders")).isTrue();
        assertThat(pattern.matches("Orders")).isFalse();
        assertThat(pattern.matches("orders2")).isFalse();
    }

    @Test
    void percentMatchesAnyRunIncludingNone() {
        NamePattern pattern = NamePattern.of("tenant_%");

        assertThat(pattern.matches("tenant_")).isTrue();
        assertThat(pattern.matches("tenant_acme_eu")).isTrue();
        assertThat(pattern.matches("tenant")).isFalse();
    }

    @Test
    void underscoreIsLiteral() {
        assertThat(NamePattern.of("a_b").matches("axb")).isFalse();
        assertThat(NamePattern.of("a_%").matches("ax1")).isFalse();
    }

    @Test
    void severalWildcardsMatchInOrderWithoutOverlap() {
        NamePattern pattern = NamePattern.of("%ab%ab%");

        assertThat(pattern.matches("abab")).isTrue();
        assertThat(pattern.matches("aba")).isFalse();
        assertThat(NamePattern.of("a%a").matches("a")).isFalse();
        assertThat(NamePattern.of("a%a").matches("aa")).isTrue();
        assertThat(NamePattern.of("%").matches("")).isTrue();
    }
}
