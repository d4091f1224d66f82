/**
 * Kafka and Postgres servers that a fault scenario can stop gracefully, kill ({@code SIGKILL}) and start again on
 * the same ports with their data kept, so clients keep their addresses across the outage:
 * {@link io.tributary.chaos.services.RestartableKafka} (a one-node KRaft broker in its own JVM) and
 * {@link io.tributary.chaos.services.RestartablePostgres} (a PostgreSQL 17 server configured for logical
 * replication).
 */
package io.tributary.chaos.services;
