package io.tributary.ingest.capture.internals;

import io.debezium.connector.postgresql.PostgresConnector;
import org.apache.kafka.connect.connector.Task;

/**
 * Debezium's Postgres connector, with {@link UnmeteredPostgresConnectorTask} as its task (set as the engine's
 * {@code connector.class}); nothing else differs. Debezium instantiates it by its public no-argument constructor.
 */
public final class UnmeteredPostgresConnector extends PostgresConnector {

    @Override
    public Class<? extends Task> taskClass() {
        return UnmeteredPostgresConnectorTask.class;
    }
}
