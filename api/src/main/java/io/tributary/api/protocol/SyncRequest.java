package io.tributary.api.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The body of {@code POST /sync/stream}: what the client holds and how it wants data.
 *
 * @param positions   per bucket the client holds, the op id it has (its {@code after}), in request order
 * @param rawData     whether op data is sent as the row's JSON text ({@code true}, what current clients ask for)
 *                    or as an embedded JSON object
 * @param clientId    the client's id ({@code ""} when it sent none); write checkpoints are per user and client
 * @param parameters  the client parameters ({@code request.parameters()} of the sync rules; not verified)
 * @param streams     the streams the client syncs ({@code streams}: defaults and subscriptions)
 */
public record SyncRequest(Map<String, Long> positions, boolean rawData, String clientId, ObjectNode parameters,
                          StreamSelection streams) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public SyncRequest {
        positions = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(positions));
        Objects.requireNonNull(clientId, "clientId");
        parameters = Objects.requireNonNull(parameters, "parameters").deepCopy();
        Objects.requireNonNull(streams, "streams");
    }

    /** A request of every stream by default. */
    public SyncRequest(Map<String, Long> positions, boolean rawData, String clientId, ObjectNode parameters) {
        this(positions, rawData, clientId, parameters, StreamSelection.DEFAULTS);
    }

    /** This request with each op's row sent as its JSON text ({@code raw_data: true}). */
    public SyncRequest withRawData() {
        return new SyncRequest(positions, true, clientId, parameters, streams);
    }

    @Override
    public ObjectNode parameters() {
        return parameters.deepCopy();
    }

    /**
     * Parses a request body. Unknown fields are ignored (clients send {@code include_checksum},
     * {@code app_metadata} and others this server does not need).
     *
     * @throws ProtocolException naming the field that is wrong
     */
    public static SyncRequest parse(byte[] body) throws ProtocolException {
        JsonNode root;
        try {
            root = body.length == 0 ? JsonNodeFactory.instance.objectNode() : JSON.readTree(body);
        } catch (IOException e) {
            throw new ProtocolException("The request body is not JSON: " + e.getMessage());
        }
        if (root == null || !root.isObject()) {
            throw new ProtocolException("The request body must be a JSON object");
        }
        Map<String, Long> positions = new LinkedHashMap<>();
        JsonNode buckets = root.path("buckets");
        if (!buckets.isMissingNode() && !buckets.isNull()) {
            if (!buckets.isArray()) {
                throw new ProtocolException("buckets must be an array of {name, after}");
            }
            for (JsonNode bucket : buckets) {
                JsonNode name = bucket.path("name");
                if (!name.isTextual()) {
                    throw new ProtocolException("buckets[].name must be a string");
                }
                positions.put(name.textValue(), opId(bucket.path("after"), "buckets[].after of " + name.textValue()));
            }
        }
        JsonNode parameters = root.path("parameters");
        if (!parameters.isMissingNode() && !parameters.isNull() && !parameters.isObject()) {
            throw new ProtocolException("parameters must be a JSON object");
        }
        JsonNode clientId = root.path("client_id");
        return new SyncRequest(positions, root.path("raw_data").asBoolean(false),
            clientId.isTextual() ? clientId.textValue() : "",
            parameters.isObject() ? (ObjectNode) parameters : JsonNodeFactory.instance.objectNode(),
            streams(root.path("streams")));
    }

    /**
     * {@code streams: {include_defaults?, subscriptions?: [{stream, parameters?, override_priority?}]}}. Parameters
     * and priority overrides are refused: they select within a sync stream, and the rules define none.
     */
    private static StreamSelection streams(JsonNode streams) throws ProtocolException {
        if (streams.isMissingNode() || streams.isNull()) {
            return StreamSelection.DEFAULTS;
        }
        if (!streams.isObject()) {
            throw new ProtocolException("streams must be an object {include_defaults, subscriptions}");
        }
        JsonNode defaults = streams.path("include_defaults");
        if (!defaults.isMissingNode() && !defaults.isNull() && !defaults.isBoolean()) {
            throw new ProtocolException("streams.include_defaults must be a boolean: " + defaults);
        }
        List<String> names = new ArrayList<>();
        JsonNode subscriptions = streams.path("subscriptions");
        if (!subscriptions.isMissingNode() && !subscriptions.isNull()) {
            if (!subscriptions.isArray()) {
                throw new ProtocolException("streams.subscriptions must be an array of {stream, parameters,"
                    + " override_priority}");
            }
            for (JsonNode subscription : subscriptions) {
                JsonNode name = subscription.path("stream");
                if (!name.isTextual()) {
                    throw new ProtocolException("streams.subscriptions[].stream must be a string: " + subscription);
                }
                JsonNode parameters = subscription.path("parameters");
                if (!parameters.isMissingNode() && !parameters.isNull() && !parameters.isObject()) {
                    throw new ProtocolException("streams.subscriptions[].parameters must be an object: " + parameters);
                }
                if (parameters.isObject() && !parameters.isEmpty()) {
                    throw new ProtocolException("The subscription to " + name.textValue() + " carries parameters "
                        + parameters + ": subscription parameters select within a sync stream, and the sync rules"
                        + " define bucket definitions only; subscribe without parameters");
                }
                JsonNode priority = subscription.path("override_priority");
                if (!priority.isMissingNode() && !priority.isNull()) {
                    throw new ProtocolException("The subscription to " + name.textValue() + " overrides its priority"
                        + " (" + priority + "): a bucket definition's priority is set in the sync rules; subscribe"
                        + " without override_priority");
                }
                names.add(name.textValue());
            }
        }
        return new StreamSelection(defaults.asBoolean(true), names);
    }

    private static long opId(JsonNode value, String field) throws ProtocolException {
        try {
            long opId = value.isTextual() ? Long.parseLong(value.textValue()) : value.isIntegralNumber()
                ? value.longValue() : -1;
            if (opId < 0) {
                throw new ProtocolException(field + " must be an op id (a decimal string >= 0): " + value);
            }
            return opId;
        } catch (NumberFormatException e) {
            throw new ProtocolException(field + " must be an op id (a decimal string >= 0): " + value);
        }
    }
}
