package io.tributary.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PgEndpointTest {

    @Test
    void hostPortDatabaseAndParametersComeFromTheUrl() {
        PgEndpoint endpoint = PgEndpoint.of("jdbc:postgresql://db.example:6543/app?sslmode=require&x=1", "u", "p");

        assertThat(endpoint.host()).isEqualTo("db.example");
        assertThat(endpoint.port()).isEqualTo(6543);
        assertThat(endpoint.database()).isEqualTo("app");
        assertThat(endpoint.parameters()).containsExactly(Map.entry("sslmode", "require"), Map.entry("x", "1"));
    }

    @Test
    void theDefaultPortIs5432AndIpv6AddressesLoseTheirBrackets() {
        PgEndpoint endpoint = PgEndpoint.of("jdbc:postgresql://[::1]/app", "u", "p");

        assertThat(endpoint.host()).isEqualTo("::1");
        assertThat(endpoint.port()).isEqualTo(5432);
        assertThat(endpoint.parameters()).isEmpty();
    }

    @Test
    void aUrlThatIsNotAPostgresUrlWithHostAndDatabaseIsRejected() {
        assertThatThrownBy(() -> PgEndpoint.of("jdbc:mysql://db/app", "u", "p"))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("jdbc:mysql://db/app");
        assertThatThrownBy(() -> PgEndpoint.of("jdbc:postgresql://db", "u", "p"))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void toStringNeverShowsThePassword() {
        PgEndpoint endpoint = PgEndpoint.of("jdbc:postgresql://db/app", "alice", "s3cret");

        assertThat(endpoint.toString()).contains("jdbc:postgresql://db/app", "alice").doesNotContain("s3cret");
    }
}
