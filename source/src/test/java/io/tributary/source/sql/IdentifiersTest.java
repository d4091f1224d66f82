package io.tributary.source.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class IdentifiersTest {

    @Test
    void plainNameIsQuoted() {
        assertThat(Identifiers.quote("orders")).isEqualTo("\"orders\"");
    }

    @Test
    void mixedCaseAndSpacesAreKeptExactly() {
        assertThat(Identifiers.quote("My Table")).isEqualTo("\"My Table\"");
    }

    @Test
    void innerDoubleQuotesAreDoubled() {
        assertThat(Identifiers.quote("a\"b")).isEqualTo("\"a\"\"b\"");
    }

    @Test
    void qualifiedNameQuotesBothParts() {
        assertThat(Identifiers.qualified("tenant_1", "Order")).isEqualTo("\"tenant_1\".\"Order\"");
    }

    @Test
    void emptyIdentifierIsRejected() {
        assertThatThrownBy(() -> Identifiers.quote("")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void identifierWithNulIsRejected() {
        assertThatThrownBy(() -> Identifiers.quote("a\0b")).isInstanceOf(IllegalArgumentException.class);
    }
}
