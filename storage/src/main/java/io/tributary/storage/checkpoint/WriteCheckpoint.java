package io.tributary.storage.checkpoint;

import java.util.Objects;

/**
 * A client's write checkpoint: once a published checkpoint's LSN is at or after {@code lsn}, the client's writes
 * made before it asked are in storage, and its sync stream reports {@code id}.
 *
 * @param userId   the token subject
 * @param clientId the client id ({@code ""} when the client sent none)
 * @param id       the write checkpoint id, &gt; 0; later ones of a client are larger
 * @param lsn      the source's WAL position when it was created (Postgres LSN text)
 */
public record WriteCheckpoint(String userId, String clientId, long id, String lsn) {

    public WriteCheckpoint {
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(clientId, "clientId");
        Objects.requireNonNull(lsn, "lsn");
        if (id <= 0) {
            throw new IllegalArgumentException("Write checkpoint ids are > 0: " + id);
        }
    }
}
