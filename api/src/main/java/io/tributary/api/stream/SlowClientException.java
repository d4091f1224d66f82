package io.tributary.api.stream;

import java.io.IOException;

/**
 * A client read its stream too slowly: a line waited longer than the write timeout. The stream is cut off (the
 * client reconnects and resumes from its positions) instead of being buffered without bound.
 */
public final class SlowClientException extends IOException {

    private static final long serialVersionUID = 1L;

    public SlowClientException(String message) {
        super(message);
    }
}
