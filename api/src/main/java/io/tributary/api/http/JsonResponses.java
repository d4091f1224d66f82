package io.tributary.api.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** Small JSON responses: PowerSync's {@code {"data": ...}} results and {@code {"error": ...}} failures. */
final class JsonResponses {

    static final ObjectMapper JSON = new ObjectMapper();

    private JsonResponses() {
    }

    /** {@code {"data": data}} with status 200. */
    static void data(Response response, Callback callback, ObjectNode data) {
        ObjectNode body = JSON.createObjectNode();
        body.set("data", data);
        send(response, callback, 200, body);
    }

    /** {@code {"error": {code, status, description}}} with {@code status}. */
    static void error(Response response, Callback callback, int status, String code, String description) {
        ObjectNode body = JSON.createObjectNode();
        ObjectNode error = body.putObject("error");
        error.put("code", code);
        error.put("status", status);
        error.put("description", description);
        send(response, callback, status, body);
    }

    private static void send(Response response, Callback callback, int status, ObjectNode body) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        Content.Sink.write(response, true, body.toString() + "\n", callback);
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
