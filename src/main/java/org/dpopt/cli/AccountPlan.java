package org.dpopt.cli;

import java.util.function.DoubleFunction;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.PoissonSampledEvent;
import org.dpopt.accounting.SelfComposedEvent;
import org.dpopt.accounting.TruncationTerm;
import org.dpopt.linalg.Checks;
import org.dpopt.sampling.BatchSampler;
import org.dpopt.sampling.Samplers;

/**
 * The schedule of an {@code account} request and its z ↦ event family, from the sampler flags alone
 * (public quantities only: no data is read). Either a Poisson rate q with T steps, or a dataset size n,
 * a batch size B and T steps (or E epochs, T = ⌈E n / B⌉), with the sampler's own privacy event.
 */
record AccountPlan(long steps, Double q, Integer n, Integer b, Double epochs, Integer maxBatch,
        DoubleFunction<DpEvent> family) {

    /** The plan of the command's flags for query {@code query}; bad combinations are refused. */
    static AccountPlan of(AccountCommand cmd, String query) {
        if (!Samplers.names().contains(cmd.sampler)) {
            throw Checks.fail("--sampler", "one of " + Samplers.names(), cmd.sampler);
        }
        if (cmd.steps != null && cmd.epochs != null) {
            throw Checks.fail("--epochs", "absent when --steps is given (one schedule only)", cmd.epochs);
        }
        if (cmd.maxBatchSize != null && !"truncated-poisson".equals(cmd.sampler)) {
            throw Checks.fail("--max-batch-size", "used only with --sampler truncated-poisson", cmd.maxBatchSize);
        }
        if (cmd.samplingRate != null) {
            return ofRate(cmd, query);
        }
        if (cmd.datasetSize == null || cmd.batchSize == null) {
            throw Checks.fail(cmd.datasetSize == null ? "--dataset-size" : "--batch-size",
                    "given (with --batch-size and --dataset-size, or --sampling-rate for poisson)", "absent");
        }
        int n = Checks.atLeastOne("--dataset-size", cmd.datasetSize);
        int b = Checks.atLeastOne("--batch-size", cmd.batchSize);
        if (b > n) {
            throw Checks.fail("--batch-size", "at most --dataset-size " + n, b);
        }
        boolean fixed = !cmd.sampler.contains("poisson");
        if (fixed && n % b != 0) {
            throw Checks.fail("--batch-size", "a divisor of --dataset-size " + n + " for sampler " + cmd.sampler, b);
        }
        long t = cmd.epochs != null ? epochSteps(cmd, n, b, fixed) : fixedSteps(cmd, n, b, fixed);
        Integer cap = "truncated-poisson".equals(cmd.sampler) ? truncationCap(cmd, query, n, b, t) : null;
        BatchSampler s = Samplers.forSteps(cmd.sampler, n, b, t, cap);
        Integer shownCap = "truncated-poisson".equals(cmd.sampler) ? s.maxBatchSlots(n) : null;
        Double rate = fixed ? null : (double) b / n;
        return new AccountPlan(t, rate, n, b, cmd.epochs, shownCap, z -> s.privacyEvent(n, z));
    }

    /** Poisson sampling at the given rate q for T steps. */
    private static AccountPlan ofRate(AccountCommand cmd, String query) {
        if (!"poisson".equals(cmd.sampler)) {
            throw Checks.fail("--sampling-rate", "used only with --sampler poisson", cmd.samplingRate);
        }
        if (cmd.datasetSize != null || cmd.batchSize != null) {
            throw Checks.fail("--sampling-rate", "given without --dataset-size/--batch-size", cmd.samplingRate);
        }
        if (cmd.epochs != null) {
            throw Checks.fail("--epochs", "used with --dataset-size and --batch-size (T = ceil(E n / B)), not with "
                    + "--sampling-rate", cmd.epochs);
        }
        if ("statement".equals(query)) {
            throw Checks.fail("--sampling-rate", "absent for a statement (give --dataset-size, --batch-size, --epochs)",
                    cmd.samplingRate);
        }
        double rate = Checks.probability("--sampling-rate", cmd.samplingRate);
        long t = validSteps(cmd);
        return new AccountPlan(t, rate, null, null, null, null,
                z -> new SelfComposedEvent(new PoissonSampledEvent(rate, new GaussianEvent(z)), t));
    }

    /** T = ⌈E n / B⌉ (E whole for the fixed-order samplers). */
    private static long epochSteps(AccountCommand cmd, int n, int b, boolean fixed) {
        double e = Checks.positive("--epochs", cmd.epochs);
        double tt = Math.ceil(e * n / b);
        if (!(tt <= AccountCommand.MAX_STEPS)) {
            throw Checks.fail("--epochs", "at most " + AccountCommand.MAX_STEPS + " steps (ceil(E n / B)) in total", e);
        }
        if (fixed && e != Math.rint(e)) {
            throw Checks.fail("--epochs", "a whole number for sampler " + cmd.sampler, e);
        }
        return Samplers.epochSteps(e, n, b);
    }

    /** --steps (whole epochs for the fixed-order samplers). */
    private static long fixedSteps(AccountCommand cmd, int n, int b, boolean fixed) {
        long t = validSteps(cmd);
        if (fixed && t % (n / b) != 0) {
            throw Checks.fail("--steps", "a multiple of the steps per epoch n/B = " + (n / b) + " for sampler "
                    + cmd.sampler, t);
        }
        return t;
    }

    /** The truncated-Poisson cap: as given, or for calibration the cap that leaves 90% of δ to the Poisson curve. */
    private static Integer truncationCap(AccountCommand cmd, String query, int n, int b, long t) {
        if (cmd.maxBatchSize != null) {
            int cap = cmd.maxBatchSize;
            if (cap < b) {
                throw Checks.fail("--max-batch-size", "at least --batch-size " + b, cap);
            }
            if (cap > n) {
                throw Checks.fail("--max-batch-size", "at most --dataset-size " + n, cap);
            }
            return cap;
        }
        Double epsilon = cmd.epsilon;
        Double delta = cmd.delta;
        if ("calibrate".equals(query) && epsilon != null && delta != null && Double.isFinite(epsilon)
                && epsilon > 0 && delta > 0 && delta < 1) {
            return TruncationTerm.maxBatchFor(n, (double) b / n, t, epsilon, delta, 0.1);
        }
        return null;
    }

    private static long validSteps(AccountCommand cmd) {
        if (cmd.steps == null) {
            throw Checks.fail("--steps", "given (or --epochs with --dataset-size and --batch-size)", "absent");
        }
        Checks.atLeastOne("--steps", cmd.steps);
        if (cmd.steps > AccountCommand.MAX_STEPS) {
            throw Checks.fail("--steps", "at most " + AccountCommand.MAX_STEPS
                    + " (longer runs are refused, not run for hours)", cmd.steps);
        }
        return cmd.steps;
    }
}
