package io.tributary.launcher.env;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.embedded.EmbeddedPostgres;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.sql.Connection;
import java.sql.DriverManager;
import org.junit.jupiter.api.Test;

/** Two databases of one server share it; databases of two servers do not. */
@RealServices
class SharedServerIT {

    @Test
    void twoDatabasesOfOneServerShareIt(TestServices services) throws Exception {
        try (Connection source = services.newDatabase().connect();
             Connection storage = services.newDatabase().connect()) {
            assertThat(SharedServer.shared(source, storage)).isTrue();
        }
    }

    @Test
    void databasesOfTwoServersDoNot(TestServices services) throws Exception {
        try (EmbeddedPostgres other = EmbeddedPostgres.start();
             Connection source = services.newDatabase().connect();
             Connection storage = DriverManager.getConnection(other.jdbcUrl("postgres"), other.superuser(), "")) {
            assertThat(SharedServer.shared(source, storage)).isFalse();
        }
    }
}
