package org.dpopt.optim.frankwolfe;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.DpEvents;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.ParallelComposedEvent;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.accounting.SelfComposedEvent;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.ProblemShape;
import org.dpopt.oracle.GllBisectionProx;
import org.dpopt.optim.Param;
import org.dpopt.optim.Preset;
import org.dpopt.optim.RunParameters;
import org.dpopt.sampling.RecordOrder;

/**
 * The schedule the one-pass methods ({@link VarianceReducedFrankWolfe}, {@link NoisyStochasticFrankWolfe})
 * share, from public constants only (theory-notes/frank-wolfe.md §3–4): R rounds of m steps with the
 * constant step μ; round r reads an anchor batch of b₀ fresh records and m − 1 difference batches of b
 * fresh records from a data-independent read order, so every record is read at most once and
 * R(b₀ + (m − 1)b) ≤ n.
 *
 * @param rounds R
 * @param steps m, steps per round
 * @param mu the constant step μ ∈ (0, 1]
 * @param anchor b₀
 * @param batch b = ⌈b₀·βμ·diam₂/L⌉, which makes a difference-batch record's sensitivity at most an
 *              anchor record's
 * @param lipschitz L = L₀R, the ℓ2 Lipschitz constant of the per-example loss
 * @param shuffle whether the read order shuffles blocks (false: storage order)
 * @param block rows per shuffled block
 * @param lastIterate release the last iterate (else the iterate at a uniformly random step)
 * @param passes K ≥ 1, the passes over the data: each is the one-pass mechanism on the same read order,
 *               started from the previous pass's iterate, so the K passes compose sequentially
 * @param decaying the step of the k-th step over all passes (k = 0, 1, …) is min(μ, 2/(k + 2)) (the
 *               classic Frank–Wolfe step) instead of the constant μ; never larger than μ, so every
 *               sensitivity bound stated with μ holds
 */
record OnePassSchedule(int rounds, int steps, double mu, int anchor, int batch, double lipschitz, boolean shuffle,
        int block, boolean lastIterate, int passes, boolean decaying) {

    /**
     * The schedule for the configured rounds, step size and steps per round (automatic: R = min(n,
     * ⌈(nε)^{1/3}⌉), μ = 1/R, m = ⌈L/(βμ·max(diam, diamFloor))⌉ clamped to [1, {@link #fittingSteps}]), b₀
     * the largest anchor that fits n records and b = ⌈b₀βμ·diam/L⌉.
     *
     * @throws IllegalArgumentException if not even b₀ = 1 fits n records
     */
    static OnePassSchedule of(OnePassSettings settings, ProblemShape shape, GeneralizedLinearLoss loss, double epsilon,
            double diam, double diamFloor, int practicalPasses) {
        double lip = loss.scalarLipschitz() * shape.rowNormBound();
        if (practicalPasses > 0 && settings.preset() == Preset.PRACTICAL && settings.rounds() == 0
                && Double.isNaN(settings.stepSize()) && settings.stepsPerRound() == 0) {
            return multiPass(settings, shape, lip, practicalPasses);
        }
        return onePass(settings, shape, loss, epsilon, diam, diamFloor, lip);
    }

    /**
     * The practical schedule: K passes of the one-pass mechanism with a single round of a single step,
     * whose anchor batch is all n records (so the estimate of each pass is the full-batch gradient at the
     * current iterate), and the classic step 2/(k + 2): full-batch private Frank–Wolfe with one release
     * per pass. K = the given passes, else min(practicalPasses, n) (the optimizer's fitted constant).
     */
    static OnePassSchedule multiPass(OnePassSettings settings, ProblemShape shape, double lip, int practicalPasses) {
        int n = shape.size();
        int k = settings.passes() > 0 ? settings.passes() : Math.min(practicalPasses, n);
        int block = settings.shuffleBlock() > 0 ? settings.shuffleBlock() : RecordOrder.blockFor(n);
        return new OnePassSchedule(1, 1, 1.0, n, 1, lip, settings.shuffle(), block, true, k, true);
    }

    private static OnePassSchedule onePass(OnePassSettings settings, ProblemShape shape, GeneralizedLinearLoss loss,
            double epsilon, double diam, double diamFloor, double lip) {
        int n = shape.size();
        double rn = shape.rowNormBound();
        double beta = Math.max(loss.scalarSmoothness() * rn * rn, 1e-300);
        int r = settings.rounds() > 0 ? settings.rounds() : (int) Math.min(n, Math.ceil(Math.cbrt(n * epsilon)));
        double mu = !Double.isNaN(settings.stepSize()) ? settings.stepSize() : 1.0 / r;
        double ratio = beta * mu * diam / lip; // b = ⌈b₀·ratio⌉
        int m = settings.stepsPerRound() > 0 ? settings.stepsPerRound()
                : (int) Math.max(1, Math.min(fittingSteps(n, r, ratio),
                        Math.ceil(lip / (beta * mu * Math.max(diam, diamFloor)))));
        int b0 = largestAnchor(n, r, m, ratio);
        if (b0 < 1) {
            throw Checks.fail("dataset size n", "at least rounds*(1 + (m-1)*ceil(ratio)) = "
                    + (long) r * (1 + (long) (m - 1) * (long) Math.ceil(ratio)) + " for R = " + r + ", m = " + m, n);
        }
        int b = (int) Math.max(1, Math.ceil(b0 * ratio));
        int block = settings.shuffleBlock() > 0 ? settings.shuffleBlock() : RecordOrder.blockFor(b);
        int k = settings.passes() > 0 ? settings.passes() : 1;
        return new OnePassSchedule(r, m, mu, b0, b, lip, settings.shuffle(), block,
                settings.preset() == Preset.PRACTICAL, k, false);
    }

    /**
     * The most steps per round for which the smallest schedule (b₀ = 1, b = ⌈ratio⌉) fits n records,
     * i.e. the largest m ≥ 1 with R(1 + (m − 1)·max(1, ⌈ratio⌉)) ≤ n (1 when not even m = 1 fits): the
     * automatic m is clamped to it, so that a default schedule never asks for more records than the
     * declared n. A function of n, R and the public ratio only.
     */
    static int fittingSteps(int n, int r, double ratio) {
        double b = Math.max(1, Math.ceil(ratio));
        double m = 1 + Math.floor(((double) n / r - 1) / b);
        return (int) Math.max(1, Math.min(n, m));
    }

    /** The largest b₀ with R(b₀ + (m − 1)⌈b₀·ratio⌉) ≤ n (0 if none). */
    static int largestAnchor(int n, int r, int m, double ratio) {
        long lo = 0;
        long hi = n;
        while (lo < hi) {
            long mid = (lo + hi + 1) / 2;
            long b = Math.max(1, (long) Math.ceil(mid * ratio));
            if ((double) r * (mid + (double) (m - 1) * b) <= n) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return (int) lo;
    }

    /**
     * Refuses a non-smooth loss, a loss whose derivative is inexact (the difference-batch sensitivity
     * rests on the smoothness bound) and an accountant for another relation than replace-one.
     */
    static void requireExactSmoothLoss(GeneralizedLinearLoss loss, PrivacyAccountant accountant, String algorithm) {
        requireExactSmoothLoss(loss, algorithm);
        FrankWolfeSupport.requireReplaceOne(accountant);
    }

    /** Refuses a non-smooth loss and a loss whose derivative is inexact (the one-pass methods' assumptions). */
    static void requireExactSmoothLoss(GeneralizedLinearLoss loss, String algorithm) {
        if (!Double.isFinite(loss.scalarSmoothness())) {
            throw Checks.fail("loss", "smooth (finite second-derivative bound) for " + algorithm, loss.name());
        }
        if (loss instanceof GllBisectionProx) {
            // its derivative is exact only to ±α/2, so differences are not bounded by β·|Δu| alone
            throw Checks.fail("loss", "a GLL with an exact derivative for " + algorithm
                    + " (the difference-batch sensitivity rests on the smoothness bound)", loss.name());
        }
    }

    /** K·R·m, the number of releases (and of candidate output iterates). */
    long totalSteps() {
        return (long) passes * rounds * steps;
    }

    /** The step of the k-th step over all passes: μ, or min(μ, 2/(k + 2)) for the decaying schedule. */
    double step(long k) {
        return decaying ? Math.min(mu, 2.0 / (k + 2)) : mu;
    }

    /** R(b₀ + (m − 1)b), the records one pass reads, each once. */
    long records() {
        return (long) rounds * (anchor + (long) (steps - 1) * batch);
    }

    /** Per-example gradient evaluations: b₀ per anchor, 2b per difference batch, in each of the K passes. */
    long gradientEvaluations() {
        return (long) passes * rounds * (anchor + 2L * (steps - 1) * batch);
    }

    /** The data-independent read order of n records. */
    int[] order(int n, UniformRandomProvider rng) {
        return shuffle ? RecordOrder.blockShuffle(n, block, rng) : RecordOrder.GIVEN.permutation(n, rng);
    }

    /**
     * The statement Parallel(R × round) of one pass (a record influences the releases of its own round
     * only), composed K times when there are K &gt; 1 passes.
     */
    DpEvent statement(DpEvent round) {
        List<DpEvent> parts = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            parts.add(round);
        }
        DpEvent pass = parallelRounds() ? new ParallelComposedEvent(parts) : round;
        return passes == 1 ? pass : DpEvents.normalize(new SelfComposedEvent(pass, passes));
    }

    /**
     * Whether the rounds of a pass are recorded as a parallel composition: always for a single pass (the
     * one-pass statement), and for several passes only when a pass has more than one round (a
     * one-round pass is just that round's event, which every accountant composes).
     */
    boolean parallelRounds() {
        return passes == 1 || rounds > 1;
    }

    /**
     * The event the accountant calibrates: a record takes part in one round per pass, so its releases
     * are K × round (the parallel composition of disjoint rounds costs what one round costs).
     */
    DpEvent perRecord(DpEvent round) {
        return passes == 1 ? round : DpEvents.normalize(new SelfComposedEvent(round, passes));
    }

    /** Puts the schedule's public parameters. */
    RunParameters.Builder put(RunParameters.Builder p) {
        if (passes > 1) {
            p.put(Param.EPOCHS, passes);
        }
        return p.put(Param.ROUNDS, rounds)
                .put(Param.STEPS_PER_ROUND, steps)
                .put(Param.STEPS, totalSteps())
                .put(Param.LEARNING_RATE, mu)
                .put(Param.ANCHOR_BATCH_SIZE, anchor)
                .put(Param.BATCH_SIZE, batch)
                .put(Param.RECORDS_USED, records())
                .put(Param.SHUFFLE_BLOCK, shuffle ? block : 0)
                .put(Param.PRESET, lastIterate ? Preset.PRACTICAL.key() : Preset.PAPER.key())
                .put(Param.OUTPUT, lastIterate ? "last" : "random");
    }
}
