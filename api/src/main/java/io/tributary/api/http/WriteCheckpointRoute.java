package io.tributary.api.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.api.auth.AuthException;
import io.tributary.api.auth.TokenVerifier;
import io.tributary.api.auth.VerifiedToken;
import io.tributary.api.stream.StoragePool;
import io.tributary.postgres.CurrentWalPosition;
import io.tributary.storage.checkpoint.WriteCheckpoint;
import io.tributary.storage.checkpoint.WriteCheckpoints;
import java.sql.SQLException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /write-checkpoint2.json?client_id=...}: records the source's current WAL position as a new write
 * checkpoint of the token's user and the client, and answers {@code {"data": {"write_checkpoint": "N"}}}. The
 * client's stream reports N with the first checkpoint at or after that position. Thread-safe.
 */
final class WriteCheckpointRoute {

    private static final Logger LOG = LoggerFactory.getLogger(WriteCheckpointRoute.class);

    private final TokenVerifier verifier;
    private final CurrentWalPosition source;
    private final StoragePool pool;

    WriteCheckpointRoute(TokenVerifier verifier, CurrentWalPosition source, StoragePool pool) {
        this.verifier = verifier;
        this.source = source;
        this.pool = pool;
    }

    void handle(Request request, Response response, Callback callback) {
        VerifiedToken token;
        try {
            token = verifier.verify(request.getHeaders().get(HttpHeader.AUTHORIZATION));
        } catch (AuthException e) {
            JsonResponses.error(response, callback, 401, "PSYNC_S2101", e.getMessage());
            return;
        }
        Fields query = Request.extractQueryParameters(request);
        String clientId = query.getValue("client_id") == null ? "" : query.getValue("client_id");
        try {
            String lsn = source.current();
            WriteCheckpoint created = pool.withConnection(c -> WriteCheckpoints.create(c, token.userId(), clientId,
                lsn));
            ObjectNode data = JsonResponses.JSON.createObjectNode();
            data.put("write_checkpoint", Long.toString(created.id()));
            JsonResponses.data(response, callback, data);
        } catch (SQLException e) {
            LOG.warn("Write checkpoint of user {} failed", token.userId(), e);
            JsonResponses.error(response, callback, 503, "PSYNC_S2302", "The write checkpoint could not be "
                + "created (source or storage unavailable): " + e.getMessage());
        }
    }
}
