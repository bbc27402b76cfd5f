package org.dpopt.optim.sgd;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import org.dpopt.accounting.DpEvent;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.core.ReleaseObserver;
import org.dpopt.sampling.Samplers;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

/**
 * The DP-SGD step allocates nothing: a release observer reads the bytes this thread has allocated at
 * the release of step {@code FROM} and again at step {@code TO} of one seeded run, so the difference is
 * exactly what {@code TO - FROM} whole steps allocate (sampling, the batch kernel, the release with its
 * noise draw, ledger entry and observer call, and the update), without the plan, the report or the
 * result.
 *
 * <p>The bound is 8 bytes per step on average: a step that allocated a single object (a boxed number,
 * an iterator, a lambda capture, a ledger entry) would cost at least 16 bytes on every step, and a
 * per-step array of d = 20 doubles 176 bytes, so any per-step allocation fails it, while the rare
 * growth of a reused buffer passes. Allocation does not depend on timing; the just-in-time compiler can
 * only remove allocations, so a measurement in the interpreter or at any tier bounds the compiled one.
 * Deterministic: no false-failure probability.
 */
class SgdLoopAllocationTest {

    private static final double BOUND_BYTES_PER_STEP = 8;
    private static final long FROM = 2_000;
    private static final long TO = 12_000;

    /** Reads the thread's allocation counter at two releases. */
    private static final class Meter implements ReleaseObserver {
        private final com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        private long releases;
        private long atFrom;
        private long atTo;

        @Override
        public void gaussian(DMatrixRMaj value, double sensitivity, DpEvent event) {
            if (releases == FROM) {
                atFrom = threads.getCurrentThreadAllocatedBytes();
            } else if (releases == TO) {
                atTo = threads.getCurrentThreadAllocatedBytes();
            }
            releases++;
        }
    }

    private static double bytesPerStep(NoisySgd.Builder builder, Problem problem) {
        Meter meter = new Meter();
        NoisySgd sgd = builder.observer(meter).build();
        sgd.run(problem, sgd.plan(problem.shape(), PrivacyBudget.of(1.0, 1e-5)), Rngs.seeded(7));
        assertTrue(meter.releases > TO, "the run must have more than " + TO + " steps but had " + meter.releases);
        return (double) (meter.atTo - meter.atFrom) / (TO - FROM);
    }

    @Test
    void aPoissonDpSgdStepAllocatesNothing() {
        Problem problem = NoisySgdTest.logisticProblem(800, 20, 3);
        double perStep = bytesPerStep(NoisySgd.builder().batchSize(16).epochs(300).noiseMultiplier(1.0)
                .l2(1e-3), problem);
        assertTrue(perStep <= BOUND_BYTES_PER_STEP, "bytes allocated per DP-SGD step must be at most "
                + BOUND_BYTES_PER_STEP + " but was " + perStep);
    }

    @Test
    void aTruncatedPoissonStepWithDiagnosticsAllocatesNothing() {
        Problem problem = NoisySgdTest.logisticProblem(800, 20, 4);
        double perStep = bytesPerStep(NoisySgd.builder().sampler(Samplers.truncatedPoisson(64)).batchSize(16)
                .epochs(300).noiseMultiplier(1.0).diagnostics(true), problem);
        assertTrue(perStep <= BOUND_BYTES_PER_STEP, "bytes allocated per DP-SGD step must be at most "
                + BOUND_BYTES_PER_STEP + " but was " + perStep);
    }
}
