package io.tributary.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.stream.simulation.RowsTopicReader;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.TopicLayout;
import io.tributary.topics.TopicNames;
import io.tributary.topics.codec.TopicCodec;
import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.ChangesMessage;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.ResolvedRow;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.RowsMessage;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.provision.TopicProvisioner;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.internals.DefaultKafkaClientSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A transaction the coordinator aborted is redone, not fatal: a stream thread is held in its commit (its rows and
 * consumed offsets in the open transaction, the commit not yet asked for) until the coordinator aborts the
 * transaction for exceeding {@code transaction.timeout.ms}; once released, the commit fails (with the answer this
 * broker gives, a fenced producer, or with the {@code INVALID_TXN_STATE} a starved broker gave when the commit raced
 * the abort), the worker keeps running and {@code rows}, read committed, holds every change exactly once. The
 * redone work is committed within {@link #REDONE_WITHIN} of the release, well under the session timeout: a replaced
 * thread's partitions move to its replacement at once instead of waiting until the failed thread's membership
 * expires.
 */
@RealServices
class AbortedTransactionIT {

    private static final int PARTITIONS = 2;
    private static final TableId TABLE = TableId.of("public", "items");
    private static final Duration TRANSACTION_TIMEOUT = Duration.ofSeconds(3);
    private static final Duration COMMIT_INTERVAL = Duration.ofMillis(500);
    private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(45);
    /** How soon after the failed commit the redone rows must be committed: well under {@link #SESSION_TIMEOUT}. */
    private static final Duration REDONE_WITHIN = Duration.ofSeconds(20);
    private static final int FIRST = 100;
    private static final int HELD = 200;
    private static final int LAST = 300;
    private static final Set<TransactionState> ABORTED =
        EnumSet.of(TransactionState.PREPARE_ABORT, TransactionState.COMPLETE_ABORT);

    @TempDir
    Path temp;

    @Test
    void aCommitAnsweredFencedAfterTheCoordinatorAbortedIsRedone(TestServices services) throws Exception {
        runWithAbortedTransaction(services, false);
    }

    /** The answer a starved broker gave a commit racing its coordinator's abort ({@code INVALID_TXN_STATE}). */
    @Test
    void aCommitAnsweredInvalidTxnStateAfterTheCoordinatorAbortedIsRedone(TestServices services) throws Exception {
        StreamWorker worker = runWithAbortedTransaction(services, true);
        assertThat(worker.redoneTransactions()).as("stream threads replaced").isEqualTo(1);
    }

    private StreamWorker runWithAbortedTransaction(TestServices services, boolean invalidTxnState) throws Exception {
        TopicNames names = TopicNames.withPrefix(services.topicPrefix());
        try (Admin admin = Admin.create(services.kafkaProperties())) {
            TopicProvisioner.ensure(admin, names, TopicLayout.of(PARTITIONS, 1, (short) 1));
        }
        Map<String, Object> settings = Map.of("bootstrap.servers", services.kafkaBootstrapServers(),
            StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, COMMIT_INTERVAL.toMillis(),
            StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG),
            (int) TRANSACTION_TIMEOUT.toMillis(),
            StreamsConfig.mainConsumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG),
            (int) SESSION_TIMEOUT.toMillis(),
            StreamsConfig.DEFAULT_CLIENT_SUPPLIER_CONFIG, HoldingCommits.class.getName());
        HoldingCommits.reset(invalidTxnState);
        StreamWorkerConfig config = new StreamWorkerConfig(settings, names, temp, 1);
        try (StreamWorker worker = StreamWorker.start(config);
             KafkaProducer<byte[], byte[]> producer = producer(services);
             KafkaConsumer<byte[], byte[]> reader = RowsTopicReader.committedConsumer(
                 services.kafkaProperties(), names, PARTITIONS);
             Admin admin = Admin.create(services.kafkaProperties())) {
            await().atMost(Duration.ofSeconds(60)).until(() -> worker.state() == KafkaStreams.State.RUNNING);
            Map<Integer, Integer> copies = new HashMap<>();
            sendInserts(producer, names, 1, FIRST);
            awaitRows(worker, reader, copies, FIRST, Duration.ofSeconds(90));

            HoldingCommits.arm();
            sendInserts(producer, names, FIRST + 1, HELD);
            assertThat(HoldingCommits.awaitHeld(Duration.ofSeconds(60)))
                .as("a stream thread reached the held commit").isTrue();
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> aborted(admin, config.applicationId()));
            HoldingCommits.release();
            awaitRows(worker, reader, copies, HELD, REDONE_WITHIN);

            sendInserts(producer, names, HELD + 1, LAST);
            awaitRows(worker, reader, copies, LAST, Duration.ofSeconds(90));
            assertThat(worker.failure()).as("the stream worker's failure").isEmpty();
            assertThat(worker.state()).isEqualTo(KafkaStreams.State.RUNNING);
            assertThat(copies.entrySet().stream().filter(e -> e.getValue() != 1).map(Map.Entry::getKey).toList())
                .as("ids in rows not exactly once").isEmpty();
            return worker;
        }
    }

    /** Whether the coordinator aborted a transaction of {@code applicationId}'s producers. */
    private static boolean aborted(Admin admin, String applicationId) throws Exception {
        for (TransactionListing listing : admin.listTransactions().all().get(10, TimeUnit.SECONDS)) {
            if (listing.transactionalId().startsWith(applicationId) && ABORTED.contains(listing.state())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Reads {@code rows} into {@code copies} until ids 1..{@code upTo} are in, for at most {@code within}; fails at
     * once if the worker did.
     */
    private static void awaitRows(StreamWorker worker, KafkaConsumer<byte[], byte[]> reader,
                                  Map<Integer, Integer> copies, int upTo, Duration within) {
        await().atMost(within)
            .failFast("the stream worker failed", () -> assertThat(worker.failure()).isEmpty())
            .untilAsserted(() -> {
                for (ConsumerRecord<byte[], byte[]> record : reader.poll(Duration.ofMillis(200))) {
                    RowsMessage message = TopicCodec.ROWS.decode(record);
                    if (message instanceof ResolvedRow row) {
                        copies.merge(idOf(row), 1, Integer::sum);
                    }
                }
                assertThat(copies.keySet()).as("ids in rows")
                    .containsAll(IntStream.rangeClosed(1, upTo).boxed().collect(Collectors.toSet()));
            });
    }

    private static int idOf(ResolvedRow row) {
        String json = row.pk().json();
        return Integer.parseInt(json.replaceAll("[^0-9]", ""));
    }

    private static void sendInserts(KafkaProducer<byte[], byte[]> producer, TopicNames names, int from, int to)
        throws Exception {
        for (int id = from; id <= to; id++) {
            ChangesMessage insert = ChangeEvent.insert(TABLE, KeyValues.of("[" + id + "]"),
                RowJson.of("{\"id\":" + id + "}"), Lsn.of(1_000L + id), 0, id);
            producer.send(TopicCodec.CHANGES.recordByKey(names.changes(), PARTITIONS, insert));
        }
        producer.flush();
    }

    private static KafkaProducer<byte[], byte[]> producer(TestServices services) {
        return new KafkaProducer<>(services.kafkaProperties(), new ByteArraySerializer(), new ByteArraySerializer());
    }

    /**
     * Gives the stream threads producers whose armed {@code commitTransaction} holds the calling thread (after the
     * consumed offsets were added to the transaction, before the commit is asked for) until the test releases it;
     * the commit's failure is then reported as it is, or as {@code INVALID_TXN_STATE}.
     * Kafka Streams instantiates it by class name; the hold is shared through static state, one test at a time.
     */
    public static final class HoldingCommits extends DefaultKafkaClientSupplier {

        private static final AtomicBoolean ARMED = new AtomicBoolean();
        private static volatile boolean answerInvalidTxnState;
        private static volatile CountDownLatch held = new CountDownLatch(1);
        private static volatile CountDownLatch release = new CountDownLatch(1);

        static void reset(boolean invalidTxnState) {
            answerInvalidTxnState = invalidTxnState;
            ARMED.set(false);
            held = new CountDownLatch(1);
            release = new CountDownLatch(1);
        }

        static void arm() {
            ARMED.set(true);
        }

        static boolean awaitHeld(Duration timeout) throws InterruptedException {
            return held.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }

        static void release() {
            release.countDown();
        }

        @Override
        public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
            return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer()) {
                @Override
                public void commitTransaction() {
                    if (!ARMED.compareAndSet(true, false)) {
                        super.commitTransaction();
                        return;
                    }
                    held.countDown();
                    try {
                        release.await(120, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    try {
                        super.commitTransaction();
                    } catch (KafkaException e) {
                        if (answerInvalidTxnState) {
                            throw Errors.INVALID_TXN_STATE.exception();
                        }
                        throw e;
                    }
                }
            };
        }
    }
}
