package io.tributary.api.http;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Dispatches the API's endpoints, answers CORS preflights (browser clients call from other origins) and 404s the
 * rest. Blocking: streams run on the request's thread. Thread-safe.
 */
final class Routes extends Handler.Abstract {

    private final SyncStreamRoute stream;
    private final WriteCheckpointRoute writeCheckpoint;

    Routes(SyncStreamRoute stream, WriteCheckpointRoute writeCheckpoint) {
        this.stream = stream;
        this.writeCheckpoint = writeCheckpoint;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String path = Request.getPathInContext(request);
        String method = request.getMethod();
        response.getHeaders().put(HttpHeader.ACCESS_CONTROL_ALLOW_ORIGIN, "*");
        if (HttpMethod.OPTIONS.is(method)) {
            response.getHeaders().put(HttpHeader.ACCESS_CONTROL_ALLOW_METHODS, "GET, POST, OPTIONS");
            response.getHeaders().put(HttpHeader.ACCESS_CONTROL_ALLOW_HEADERS,
                "Authorization, Content-Type, User-Agent, X-User-Agent");
            response.getHeaders().put(HttpHeader.ACCESS_CONTROL_MAX_AGE, "86400");
            response.setStatus(204);
            callback.succeeded();
            return true;
        }
        if (path.equals("/sync/stream") && HttpMethod.POST.is(method)) {
            stream.handle(request, response, callback);
        } else if (path.equals("/write-checkpoint2.json") && HttpMethod.GET.is(method)) {
            writeCheckpoint.handle(request, response, callback);
        } else {
            JsonResponses.error(response, callback, 404, "PSYNC_S2002", "No endpoint " + method + " " + path
                + " (this server has POST /sync/stream and GET /write-checkpoint2.json)");
        }
        return true;
    }
}
