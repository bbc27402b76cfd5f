package org.dpopt.cli;

import org.dpopt.accounting.DpEvents;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.ProblemShape;
import org.dpopt.optim.Param;
import org.dpopt.optim.RunPlan;

/**
 * Requests {@code dpopt train} refuses up front because they could not finish in reasonable time or
 * memory, each with the reason: rather than running for hours or ending in an {@code OutOfMemoryError}.
 */
final class TrainLimits {
    /** Largest ε train calibrates to: beyond it the noise is too small for a meaningful guarantee. */
    static final double MAX_EPSILON = 100;
    /** Most per-example gradient coordinates of one run (epochs × rows × parameters): tens of minutes at the least. */
    static final double MAX_WORK = 1e12;
    /** Most steps of one run. */
    static final long MAX_STEPS = 10_000_000L;
    /** Bytes the samplers keep per (declared) row: an index and a weight for each possible batch slot. */
    private static final long BYTES_PER_ROW = 12;

    private TrainLimits() {
    }

    static void epsilon(double eps) {
        if (eps > MAX_EPSILON) {
            throw Checks.fail("--epsilon", "at most " + MAX_EPSILON + " (a larger epsilon is no meaningful guarantee, "
                    + "and its noise would fall below the resolution of the secure sampler)", eps);
        }
    }

    /** Refuses a declared dataset size whose per-row sampler slots cannot fit in a quarter of the heap. */
    static void declaredSize(Integer n) {
        if (n == null) {
            return;
        }
        long most = Runtime.getRuntime().maxMemory() / 4 / BYTES_PER_ROW;
        if (n > most) {
            throw Checks.fail("--dataset-size", "at most " + most + " (batch samplers keep " + BYTES_PER_ROW
                    + " bytes per row, in a quarter of this JVM's heap; raise it with -Xmx)", n);
        }
    }

    /** Refuses a number of epochs whose run would take hours, before anything is planned. */
    static void epochs(Double epochs, ProblemShape shape) {
        if (epochs == null) {
            return;
        }
        double perEpoch = (double) shape.size() * shape.parameterDimension();
        if (epochs * perEpoch > MAX_WORK) {
            throw Checks.fail("--epochs", String.format("at most %.4g for %d rows and %d parameters (a run is "
                    + "limited to %.0e per-example gradient coordinates, hours of work)", MAX_WORK / perEpoch,
                    shape.size(), shape.parameterDimension(), MAX_WORK), epochs);
        }
    }

    /**
     * Refuses a plan with too many steps (e.g. many epochs of tiny batches), before it runs. The step
     * limit is for steps that each release noise (the statement makes at least one release per step);
     * a plan whose steps are solver steps between a few releases (SVRG's inner steps, one row gradient
     * each) is held to the work limit instead: steps × rows per step × parameters.
     */
    static void steps(RunPlan plan, Double epochs) {
        if (!plan.parameters().has(Param.STEPS)) {
            return;
        }
        double t = plan.parameters().real(Param.STEPS);
        boolean noisySteps = DpEvents.releases(plan.statement()) >= t;
        if (noisySteps && t > MAX_STEPS) {
            String why = "small enough for at most " + MAX_STEPS + " steps (fewer epochs or larger batches; "
                    + "this plan has " + (long) t + ")";
            throw epochs != null ? Checks.fail("--epochs", why, epochs) : Checks.fail("planned steps", why, (long) t);
        }
        // rows per step: the (expected) batch size where the plan has one, else one row (SVRG's inner steps)
        double rows = plan.parameters().has(Param.BATCH_SIZE)
                ? Math.max(1, plan.parameters().real(Param.BATCH_SIZE)) : 1;
        double perStep = rows * plan.shape().parameterDimension();
        if (!noisySteps && t * perStep > MAX_WORK) {
            throw Checks.fail("planned steps", String.format("at most %.4g for %.0f rows of %d parameters per step (a "
                    + "run is limited to %.0e gradient coordinates, hours of work)", MAX_WORK / perStep, rows,
                    plan.shape().parameterDimension(), MAX_WORK), (long) t);
        }
    }
}
