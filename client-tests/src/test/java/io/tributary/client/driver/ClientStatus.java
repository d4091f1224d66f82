package io.tributary.client.driver;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The client's sync status as the PowerSync SDK reports it, with what its backend connector did.
 *
 * @param connected whether the sync stream is open
 * @param hasSynced whether a complete checkpoint was ever applied
 * @param downloadError the last error of the sync stream, if any
 * @param priorities per bucket priority seen: whether a checkpoint of it (and higher ones) was applied
 * @param credentialsFetched how often the SDK asked the connector for credentials
 * @param uploads local transactions the connector sent to the backend
 */
public record ClientStatus(boolean connected, boolean hasSynced, Optional<String> downloadError,
                           List<PriorityStatus> priorities, int credentialsFetched, int uploads) {

    /** One bucket priority's status. */
    public record PriorityStatus(int priority, boolean hasSynced) {
    }

    static ClientStatus of(JsonNode json) {
        List<PriorityStatus> priorities = new ArrayList<>();
        json.path("priorities").forEach(p ->
            priorities.add(new PriorityStatus(p.path("priority").asInt(), p.path("hasSynced").asBoolean())));
        JsonNode error = json.path("downloadError");
        return new ClientStatus(json.path("connected").asBoolean(), json.path("hasSynced").asBoolean(),
            error.isTextual() ? Optional.of(error.asText()) : Optional.empty(), List.copyOf(priorities),
            json.path("credentialsFetched").asInt(), json.path("uploads").asInt());
    }
}
