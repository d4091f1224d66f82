/**
 * Creating and verifying the topics of a deployment with the Kafka Admin client:
 * {@link io.tributary.topics.provision.TopicProvisioner#ensure}. Idempotent and safe to run concurrently; fails
 * with {@link io.tributary.topics.provision.TopicMismatchException} when existing topics contradict the layout.
 */
package io.tributary.topics.provision;
