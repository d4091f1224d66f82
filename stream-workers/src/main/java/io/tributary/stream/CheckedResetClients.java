package io.tributary.stream;

import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.streams.KafkaClientSupplier;

/**
 * The stream workers' Kafka clients: those of the configured supplier (Kafka Streams' own by default), except that
 * each stream thread's main consumer checks a move of its input partitions to the log's start first
 * ({@link CheckedResets}).
 */
final class CheckedResetClients implements KafkaClientSupplier {

    private final KafkaClientSupplier clients;
    private final CheckedResets.Check check;

    CheckedResetClients(KafkaClientSupplier clients, CheckedResets.Check check) {
        this.clients = clients;
        this.check = check;
    }

    @Override
    public Admin getAdmin(Map<String, Object> config) {
        return clients.getAdmin(config);
    }

    @Override
    public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
        return clients.getProducer(config);
    }

    @Override
    public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
        return CheckedResets.wrap(clients.getConsumer(config), check);
    }

    @Override
    public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
        return clients.getRestoreConsumer(config);
    }

    @Override
    public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
        return clients.getGlobalConsumer(config);
    }
}
