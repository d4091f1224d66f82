package io.tributary.source.encoding.internals;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;

/** Writes the canonical value of one non-NULL array element given as Postgres's text form of the element. */
@FunctionalInterface
interface TextElementWriter {

    void write(String text, JsonGenerator out) throws IOException;
}
