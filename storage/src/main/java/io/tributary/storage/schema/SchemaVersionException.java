package io.tributary.storage.schema;

/** The storage database's schema is newer than this build; the message says what to run instead. */
public final class SchemaVersionException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public SchemaVersionException(String message) {
        super(message);
    }
}
