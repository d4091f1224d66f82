package io.tributary.stream.topology;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.Test;

class PromptCommitsTest {

    private static final TaskId A = new TaskId(0, 0);
    private static final TaskId B = new TaskId(0, 1);
    private static final TaskId C = new TaskId(0, 2);

    private static PromptCommits threadOf(TaskId... tasks) {
        PromptCommits commits = new PromptCommits();
        for (TaskId task : tasks) {
            commits.register(task);
        }
        return commits;
    }

    @Test
    void aFreshBarrierCommitsOnceTheThreadsLastTaskProcessedIt() {
        PromptCommits commits = threadOf(A, B, C);
        assertThat(commits.barrier(A, 5, true, 0)).isFalse();
        assertThat(commits.barrier(C, 5, true, 1)).isFalse();
        assertThat(commits.barrier(B, 5, true, 2)).as("the last task commits for the thread").isTrue();
        assertThat(commits.overdue(A, 1_000)).as("nothing left pending").isFalse();
    }

    @Test
    void aTaskThatDoesNotAskStillCountsAsHavingProcessedTheBarrier() {
        PromptCommits commits = threadOf(A, B);
        assertThat(commits.barrier(A, 5, true, 0)).isFalse();
        assertThat(commits.barrier(B, 5, false, 1)).isTrue();
    }

    @Test
    void barriersNoTaskAsksForCommitNothing() {
        PromptCommits commits = threadOf(A, B);
        assertThat(commits.barrier(A, 5, false, 0)).isFalse();
        assertThat(commits.barrier(B, 5, false, 1)).isFalse();
        assertThat(commits.overdue(A, 10_000)).isFalse();
    }

    @Test
    void aLaggingTaskHoldsTheCommitNoLongerThanTheGatherLimit() {
        PromptCommits commits = threadOf(A, B);
        long limit = PromptCommits.GATHER_LIMIT.toMillis();
        assertThat(commits.barrier(A, 5, true, 1_000)).isFalse();
        assertThat(commits.overdue(A, 1_000 + limit - 1)).isFalse();
        assertThat(commits.overdue(B, 1_000 + limit)).as("only a task that asked commits").isFalse();
        assertThat(commits.overdue(A, 1_000 + limit)).isTrue();
        assertThat(commits.barrier(B, 5, true, 1_000 + limit + 5)).as("the lagging task's barrier alone").isTrue();
    }

    @Test
    void aTaskAtALaterBarrierHasProcessedTheEarlierOne() {
        PromptCommits commits = threadOf(A, B);
        assertThat(commits.barrier(B, 6, false, 0)).isFalse();
        assertThat(commits.barrier(A, 5, true, 1)).isTrue();
    }

    @Test
    void anUnregisteredTaskIsNotWaitedFor() {
        PromptCommits commits = threadOf(A, B, C);
        assertThat(commits.barrier(A, 5, true, 0)).isFalse();
        commits.unregister(C);
        assertThat(commits.barrier(B, 5, true, 1)).isTrue();
    }
}
