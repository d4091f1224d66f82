/**
 * Access to the source Postgres database shared by ingest (WAL through Debezium) and the snapshot workers (JDBC
 * chunk reads): {@link io.tributary.source.catalog the catalog} (tables, columns, keys),
 * {@link io.tributary.source.encoding the canonical row encoding} both paths must agree on byte for byte, and
 * {@link io.tributary.source.sql SQL helpers} (identifier quoting).
 */
package io.tributary.source;
