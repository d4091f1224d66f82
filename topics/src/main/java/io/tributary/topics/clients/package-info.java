/**
 * What the stages' Kafka clients share beyond the topics contract: {@link io.tributary.topics.clients.ClusterIdentity},
 * the cluster a producer's acknowledgements come from.
 */
package io.tributary.topics.clients;
