package io.tributary.source.encoding.internals;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;

/** Writes the canonical form of one non-null Kafka Connect value (a column value or an array element). */
@FunctionalInterface
public interface ConnectValueWriter {

    void write(Object value, JsonGenerator out) throws IOException;
}
