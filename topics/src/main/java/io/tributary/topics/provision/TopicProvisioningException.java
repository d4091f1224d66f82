package io.tributary.topics.provision;

/**
 * Provisioning could not complete: the cluster refused a request (authorization, replication factor above the
 * broker count, a create policy), did not answer before the deadline, or the calling thread was interrupted
 * (the interrupt flag is restored). Names the topic where one is concerned.
 */
public class TopicProvisioningException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Provisioning failed for {@code message}, because of {@code cause}. */
    public TopicProvisioningException(String message, Throwable cause) {
        super(message, cause);
    }
}
