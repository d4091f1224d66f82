package io.tributary.bench.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.bench.probe.RoleCpu.Role;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class RoleCpuTest {

    @Test
    void threadNamesOfARunningPipelineMapToTheirRoles() {
        assertThat(Role.of("bench_a_w2.snapshot-workers-2a24b20b-0")).isEqualTo(Role.SNAPSHOT_WORKERS);
        assertThat(Role.of("kafka-coordinator-heartbeat-thread | bench_a_w2.snapshot-workers"))
            .isEqualTo(Role.SNAPSHOT_WORKERS);
        assertThat(Role.of("bench_a_w2.stream-workers-86e53a6b-90c0-4f80-8283-12c664afddd6-StreamThread-1"))
            .isEqualTo(Role.STREAM_WORKERS);
        assertThat(Role.of("bench_a_w2.storage-writer-g1-0-poll")).isEqualTo(Role.STORAGE_WRITER);
        assertThat(Role.of("tributary-snapshot-planner")).isEqualTo(Role.INGEST);
        assertThat(Role.of("tributary-ingest-bench_a_w2")).isEqualTo(Role.INGEST);
        assertThat(Role.of("debezium-postgresconnector-bench_a_w2-change-event-source-coordinator"))
            .isEqualTo(Role.INGEST);
        assertThat(Role.of("data-plane-kafka-request-handler-3")).isEqualTo(Role.BROKER);
        assertThat(Role.of("group-coordinator-event-processor-0")).isEqualTo(Role.BROKER);
        assertThat(Role.of("kafka-producer-network-thread | producer-1")).isEqualTo(Role.OTHER);
        assertThat(Role.of("C2 CompilerThread0")).isEqualTo(Role.JIT);
        assertThat(Role.of("kafka-producer-network-thread | bench_a_w2.snapshot-workers-2a24b20b-producer"))
            .isEqualTo(Role.SNAPSHOT_WORKERS);
        assertThat(Role.of("pool-7-thread-1")).isEqualTo(Role.INGEST);
        assertThat(Role.of("bench-memory-probe")).isEqualTo(Role.BENCH);
        assertThat(Role.of("bench-launcher")).isEqualTo(Role.OTHER);
        assertThat(Role.of("executor-Fetch")).isEqualTo(Role.BROKER);
        assertThat(Role.of("group-coordinator-reaper")).isEqualTo(Role.BROKER);
        assertThat(Role.of("process reaper")).isEqualTo(Role.OTHER);
    }

    @Test
    void aBusyThreadsCpuIsCountedUnderItsRole() throws Exception {
        RoleCpu probe = RoleCpu.start();
        CountDownLatch spun = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread busy = new Thread(() -> spinThenWait(spun, release), "x.storage-writer-g1-0-poll");
        busy.start();
        spun.await();
        Map<Role, Double> seconds = probe.stop();
        release.countDown();
        busy.join();
        assertThat(seconds.get(Role.STORAGE_WRITER)).isGreaterThanOrEqualTo(0.1);
        assertThat(seconds.get(Role.SNAPSHOT_WORKERS)).isLessThan(0.1);
        assertThat(RoleCpu.perRow(seconds, 1_000)).contains("storage-writer");
    }

    /** Uses 100 ms of CPU, then waits (alive, so the probe's last sample sees it) until released. */
    private static void spinThenWait(CountDownLatch spun, CountDownLatch release) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long x = 0;
        while (threads.getCurrentThreadCpuTime() < 100_000_000L) {
            x += System.nanoTime() % 7;
        }
        spun.countDown();
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (x == 42) {
            System.out.println(x);
        }
    }
}
