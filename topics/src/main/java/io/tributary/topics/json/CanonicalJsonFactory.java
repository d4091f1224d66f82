package io.tributary.topics.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamWriteConstraints;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;

/**
 * The one Jackson configuration of canonical row JSON: the limits every stage reads and writes rows with, and the
 * factories built from them. The source writes rows with {@link #DOCUMENT_FACTORY}, the topic codecs read and write
 * them with {@link #FACTORY}, and the sync rules parse them with a mapper over {@link #newFactory()}, so a row one
 * stage accepts is a row every later stage accepts. Whatever else carries row values (chunk bounds, bucket
 * memberships, sync lines, command output) reads and writes them with {@link #FACTORY} too. Thread-safe: the
 * factories are immutable once built; parsers and generators are created per value (cheap; a factory recycles
 * buffers).
 *
 * <p>Limits: numbers, strings and names are unbounded (Postgres {@code numeric} has up to 131072 digits, a text
 * column may hold 1 GB), nesting is bounded by {@link #MAX_NESTING_DEPTH} for reading and writing, the document
 * length is unbounded; the record size is bounded by Kafka anyway.
 */
public final class CanonicalJsonFactory {

    /** The deepest nesting of arrays and objects a row value may have. */
    public static final int MAX_NESTING_DEPTH = 100_000;

    /** The read limits of every canonical parser. */
    public static final StreamReadConstraints READ_LIMITS = StreamReadConstraints.builder()
        .maxNumberLength(Integer.MAX_VALUE)
        .maxStringLength(Integer.MAX_VALUE)
        .maxNameLength(Integer.MAX_VALUE)
        .maxNestingDepth(MAX_NESTING_DEPTH)
        .maxDocumentLength(-1)
        .build();

    /** The write limits of every canonical generator. */
    public static final StreamWriteConstraints WRITE_LIMITS = StreamWriteConstraints.builder()
        .maxNestingDepth(MAX_NESTING_DEPTH)
        .build();

    /** The factory of the topic codecs: a fixed, small set of field names, so names are canonicalized. */
    public static final JsonFactory FACTORY = newFactory();

    /**
     * The factory of the source's row texts and of arbitrary JSON documents ({@code json}/{@code jsonb} values
     * re-written into a row): field names are not canonicalized (each document brings its own), a character outside
     * the Basic Multilingual Plane is written as its 4-byte UTF-8 form (not as an escaped surrogate pair, so UTF-8
     * and text generators write the same row), and closing a generator leaves its target open.
     */
    public static final JsonFactory DOCUMENT_FACTORY = JsonFactory.builder()
        .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8)
        .disable(JsonFactory.Feature.CANONICALIZE_FIELD_NAMES)
        .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
        .streamReadConstraints(READ_LIMITS)
        .streamWriteConstraints(WRITE_LIMITS)
        .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
        .build();

    private CanonicalJsonFactory() {
    }

    /** A new factory with the canonical limits, for a caller that configures it further (an object mapper does). */
    public static JsonFactory newFactory() {
        return JsonFactory.builder()
            .streamReadConstraints(READ_LIMITS)
            .streamWriteConstraints(WRITE_LIMITS)
            .build();
    }
}
