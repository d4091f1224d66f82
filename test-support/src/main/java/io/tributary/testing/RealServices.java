package io.tributary.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gives a test class a real Kafka broker and a real Postgres with {@code wal_level=logical}, through a
 * {@link TestServices} parameter of its test methods.
 *
 * <p>Where the services come from, in this order (see {@link ServiceStack}):
 * <ol>
 *   <li>external services named by environment variables ({@code TRIBUTARY_TEST_KAFKA_BOOTSTRAP_SERVERS},
 *       {@code TRIBUTARY_TEST_POSTGRES_URL}, {@code TRIBUTARY_TEST_POSTGRES_USER},
 *       {@code TRIBUTARY_TEST_POSTGRES_PASSWORD}), so the same tests run against any real deployment;</li>
 *   <li>Testcontainers, when a Docker engine answers;</li>
 *   <li>otherwise embedded: an in-JVM KRaft broker and a PostgreSQL 17 server process.</li>
 * </ol>
 * Never a mock and never a skip: if no source works, the test fails with the reason. The services start once
 * per test JVM and are shared; each test isolates itself with {@link TestServices#topicPrefix()},
 * {@link TestServices#uniqueName(String)} and {@link TestServices#newDatabase()}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(RealServicesExtension.class)
public @interface RealServices {
}
