/**
 * Not API. The Kafka Streams implementation of the merge store: store keys, the versioned value format and
 * the lazy release of per-key state.
 */
package io.tributary.stream.internals;
