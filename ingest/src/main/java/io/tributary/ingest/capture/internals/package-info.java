/**
 * Not API: how the capture runs inside: Debezium engine settings, the batch handler, transaction assembly, row
 * encoding per table, the Kafka producer of {@code changes}, failure classification and retry timing.
 */
package io.tributary.ingest.capture.internals;
