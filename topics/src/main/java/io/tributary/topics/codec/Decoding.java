package io.tributary.topics.codec;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.tributary.topics.codec.internals.MalformedInput;
import java.io.IOException;

/** Runs a decode step and turns every way it can fail on bad input into a {@link MessageFormatException}. */
final class Decoding {

    /** A decode step. */
    interface Step<T> {
        T run() throws IOException;
    }

    private Decoding() {
    }

    /**
     * Runs {@code step}; failures become a {@link MessageFormatException} at {@code position} whose reason starts
     * with {@code prefix} ({@code ""} for values, {@code "key: "} for keys).
     */
    static <T> T guard(RecordPosition position, String prefix, Step<T> step) {
        try {
            return step.run();
        } catch (MalformedInput e) {
            throw new MessageFormatException(position, prefix + e.getMessage(), e);
        } catch (JsonProcessingException e) {
            throw new MessageFormatException(position, prefix + "invalid JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new MessageFormatException(position, prefix + "unreadable: " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new MessageFormatException(position, prefix + "invalid content: " + e.getMessage(), e);
        }
    }
}
