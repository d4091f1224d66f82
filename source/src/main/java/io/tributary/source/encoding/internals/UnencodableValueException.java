package io.tributary.source.encoding.internals;

/**
 * A value the canonical encoding cannot represent (out of the supported range, a special value inside an array,
 * a multi-dimensional array, a malformed text form). The row encoders rethrow it with the table and column.
 */
public final class UnencodableValueException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public UnencodableValueException(String reason) {
        super(reason);
    }

    public UnencodableValueException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
