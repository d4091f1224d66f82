package io.tributary.topics.codec.internals;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;

/**
 * The one Jackson factory of the codecs. Thread-safe and shared: parsers and generators are created per record
 * (cheap; the factory recycles buffers and the field name table).
 *
 * <p>Read limits are lifted so rows with huge numerics (Postgres {@code numeric} has up to 131072 digits), long
 * text and deeply nested {@code jsonb} pass through; the record size is bounded by Kafka anyway.
 */
public final class JsonSupport {

    /** The shared factory. */
    public static final JsonFactory FACTORY = JsonFactory.builder()
        .streamReadConstraints(StreamReadConstraints.builder()
            .maxNumberLength(Integer.MAX_VALUE)
            .maxStringLength(Integer.MAX_VALUE)
            .maxNameLength(Integer.MAX_VALUE)
            .maxNestingDepth(100_000)
            .build())
        .build();

    private JsonSupport() {
    }
}
