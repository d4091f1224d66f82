package io.tributary.topics.provision;

import java.util.List;

/**
 * What {@link TopicProvisioner#ensure} did. Every listed topic matched the layout when it returned.
 *
 * @param created  topics this call created
 * @param existing topics that already existed (or that a concurrent provisioner created first)
 */
public record ProvisionResult(List<String> created, List<String> existing) {

    public ProvisionResult {
        created = List.copyOf(created);
        existing = List.copyOf(existing);
    }
}
