package org.dpopt.audit;

import java.util.Set;
import org.dpopt.accounting.AblqAccountant;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.accounting.PldAccountant;
import org.dpopt.accounting.RdpAccountant;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.loss.Loss;
import org.dpopt.loss.Losses;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.smoothing.ProxSgd;
import org.dpopt.optim.core.Mutation;
import org.dpopt.optim.sgd.Bftt19Sgd;
import org.dpopt.optim.sgd.NoisySgd;
import org.dpopt.sampling.Samplers;
import org.ejml.data.DMatrixRMaj;

/**
 * Audit configurations of the noisy-SGD family ({@code dp-sgd}, {@code nsgd}): the worst-case
 * gradient canary ({@link Canaries}) seen through every noisy batch sum (white-box) or the final
 * model, and the constructions that expose the sampling and normalization mutants.
 */
final class SgdAudits {
    private SgdAudits() {
    }

    /** Records besides the canary. */
    static final int OTHERS = 99;
    /** Dimension: feature 0 for the other records, feature 1 for the canary. */
    static final int D = 2;
    /** Clip norm, a tenth of the loss's gradient bound L₀R = 1 (so that not clipping shows). */
    static final double CLIP = 0.1;
    /** The loss: Huber with threshold 1 (|φ′| ≤ 1). */
    static final Loss LOSS = Losses.huber(1.0);

    /** The canary x = e_1 with a far label: gradient −e_1, clipped to −C·e_1, at every step. */
    static Dataset gradientCanary() {
        return Canaries.record(D, 1, 1.0, Canaries.FAR_LABEL, 1.0);
    }

    static DMatrixRMaj canaryDirection() {
        return Canaries.axis(D, 1, -1);
    }

    private static final PrivacyAccountant PLD = MemoizingAccountant.of(new PldAccountant());
    /** The sampler-aware accountant (zero-out) for the honest shuffled runs. */
    private static final PrivacyAccountant ABLQ = MemoizingAccountant.of(new AblqAccountant());

    /**
     * The PLD accountant, memoized and shared by every configuration: every run of an audit reports the
     * same ledger, and an honest audit and its mutants calibrate the same events.
     */
    static PrivacyAccountant pld() {
        return PLD;
    }

    /**
     * White-box, Poisson batches: batch size b of n = {@value #OTHERS} + 1 for the given epochs, every
     * noisy sum observed, the Poisson-Gaussian log-likelihood ratio.
     */
    static AuditTarget isolatedPoisson(double epsilon, int batch, double epochs) {
        Dataset others = Canaries.background(OTHERS, D, 1, 1.0, false, 11);
        NeighbouringPair pair = Canaries.addRemove(others, gradientCanary(), canaryDirection(),
                "gradient canary x = e_1, y = 1e6 (clipped gradient -C e_1 at every step; no other record uses "
                        + "feature 1)");
        PrivacyAccountant acc = pld();
        return new AuditTarget("dp-sgd", "isolated-poisson", PrivacyBudget.of(epsilon, 1e-5), pair, LOSS,
                ConvexSets.unconstrained(),
                (m, o) -> NoisySgd.builder().batchSize(batch).epochs(epochs).clipNorm(CLIP).learningRate(1)
                        .accountant(acc).mutation(m).observer(o).build(),
                Statistics.poissonGaussianLlr(1.0),
                Set.of(Mutation.NO_CLIPPING, Mutation.HALF_NOISE),
                new CurveAccountant(acc, new RdpAccountant()), null,
                "q = b/n, T = E n/b; the log-likelihood ratio of the Poisson-subsampled Gaussian on the "
                        + "projections of the noisy sums on -e_1");
    }

    /**
     * The practical default of {@code noisy-sfw} or {@code noisy-frank-wolfe}, Frank–Wolfe steps on
     * Poisson batches (n = {@value #OTHERS} + 1, so b = 10, q = 0.1, T = 300): the isolated canary of
     * {@link #isolatedPoisson}, whose gradient is −L₀e_1, of norm the clip norm L₀R (R = 1), at every step;
     * every noisy sum observed, the Poisson-Gaussian log-likelihood ratio. The clipping is the loss's own
     * bound, so only the noise can be mutated.
     */
    static AuditTarget frankWolfePoisson(String algorithm, double epsilon, AuditTarget.OptimizerFactory factory) {
        Dataset others = Canaries.background(OTHERS, D, 1, 1.0, false, 11);
        NeighbouringPair pair = Canaries.addRemove(others, gradientCanary(), canaryDirection(),
                "gradient canary x = e_1, y = 1e6 (gradient -e_1 of norm L0 R = 1 at every step; no other record "
                        + "uses feature 1)");
        PrivacyAccountant acc = pld();
        return new AuditTarget(algorithm, "isolated-poisson", PrivacyBudget.of(epsilon, 1e-5), pair, LOSS,
                ConvexSets.unconstrained(), factory, Statistics.poissonGaussianLlr(1.0), Set.of(Mutation.HALF_NOISE),
                new CurveAccountant(acc, new RdpAccountant()), null,
                "the practical default (Poisson batches, b = n/10, 30 epochs); the log-likelihood ratio of the "
                        + "Poisson-subsampled Gaussian on the projections of the noisy sums on -e_1");
    }

    /**
     * Black-box, full batch (q = 1), the other records aligned with the canary: every other record has
     * the clipped gradient +C·e_1, the canary −C·e_1. With the public normalizer n the canary moves the
     * final w_1 by ηTC/n against noise ησ√T/n (a Gaussian pair, μ = √T/z); dividing by the realized
     * batch size instead (n − 1 without the canary, n with it) also moves the others' mean, doubling
     * the shift. The statistic is the released model's w_1.
     */
    static AuditTarget alignedFullBatch(double epsilon, double epochs) {
        double[][] rows = new double[OTHERS][D];
        double[] y = new double[OTHERS];
        for (int i = 0; i < OTHERS; i++) {
            rows[i][1] = 1;
            y[i] = -Canaries.FAR_LABEL;
        }
        Dataset others = Dataset.of(rows, y, 1.0);
        NeighbouringPair pair = Canaries.addRemove(others, gradientCanary(), Canaries.axis(D, 1, 1),
                "gradient canary x = e_1, y = 1e6 (clipped gradient -C e_1); the other records x = e_1, y = -1e6 "
                        + "(clipped gradient +C e_1)");
        PrivacyAccountant acc = pld();
        int n = OTHERS + 1;
        return new AuditTarget("dp-sgd", "aligned-full-batch", PrivacyBudget.of(epsilon, 1e-5), pair, LOSS,
                ConvexSets.unconstrained(),
                (m, o) -> NoisySgd.builder().batchSize(n).epochs(epochs).clipNorm(CLIP).learningRate(1)
                        .accountant(acc).mutation(m).observer(o).build(),
                Statistics.modelProjection(Canaries.axis(D, 1, 1)),
                Set.of(Mutation.REALIZED_BATCH, Mutation.HALF_RATE_ACCOUNTING, Mutation.HALF_NOISE),
                new CurveAccountant(acc, new RdpAccountant()), null,
                "q = 1, T = E; the released model's coordinate w_1 (black-box)");
    }

    /**
     * White-box, zero-out pair, batches of b for one epoch, the other records aligned against the
     * canary (clipped gradients −C·u, the canary +C·u, the null record 0): the construction of Chua,
     * Ghazi, Kamath, Kumar, Manurangsi, Sinha, Zhang, "How Private are DP-SGD Implementations?", ICML
     * 2024, arXiv:2403.17673. With batches of exactly b records every batch sum along u is −bC + noise
     * except the one holding the canary (−bC + 2C) or the null record (−bC + C), so the maximum
     * projection finds it; with Poisson batches the sums' sizes vary and hide it. Audits the Poisson
     * claim against a shuffled implementation.
     */
    static AuditTarget alignedShuffle(double epsilon, int batch, int n) {
        double[][] rows = new double[n - 1][D];
        double[] y = new double[n - 1];
        for (int i = 0; i < n - 1; i++) {
            rows[i][1] = 1;
            y[i] = Canaries.FAR_LABEL;
        }
        Dataset others = Dataset.of(rows, y, 1.0);
        NeighbouringPair pair = Canaries.zeroOut(others, Canaries.record(D, 1, 1.0, -Canaries.FAR_LABEL, 1.0),
                Canaries.axis(D, 1, 1), "canary x = e_1, y = -1e6 (clipped gradient +C e_1); the other records "
                        + "x = e_1, y = 1e6 (clipped gradient -C e_1)");
        PrivacyAccountant acc = pld();
        return new AuditTarget("dp-sgd", "aligned-shuffle", PrivacyBudget.of(epsilon, 1e-5), pair, LOSS,
                ConvexSets.unconstrained(),
                (m, o) -> NoisySgd.builder().batchSize(batch).epochs(1).clipNorm(CLIP).learningRate(1)
                        .accountant(acc).mutation(m).observer(o).build(),
                Statistics.maxProjection(),
                Set.of(Mutation.SHUFFLE_AS_POISSON),
                new CurveAccountant(acc, new RdpAccountant()), null,
                "zero-out; q = b/n, one epoch; the largest projection of a noisy sum on e_1");
    }

    /** The shuffled-epochs configuration: n = S (batches of one), E epochs. */
    static final int SHUFFLE_N = 500;
    static final int SHUFFLE_EPOCHS = 3;
    /**
     * The test fixed in advance for the claim ε = 1 ("canary present" iff the summed log-likelihood ratio
     * exceeds it): chosen before the audit's runs by simulating the shuffled pair at the noise multiplier
     * the Poisson claim calibrates (z = 0.744 for q = 1/500, T = 1500, (1, 10⁻⁵)), where it has
     * false-positive rate 0.0065 and true-positive rate 0.12 (theory-notes/auditing.md, §7).
     */
    static final double SHUFFLE_TEST_AT_EPS1 = 2.2;

    /**
     * {@link #alignedShuffleEpochs(double, int, int, boolean, double)} with n = {@value #SHUFFLE_N},
     * E = {@value #SHUFFLE_EPOCHS}, the fixed test {@value #SHUFFLE_TEST_AT_EPS1} at ε = 1 and the
     * threshold chosen on the selection half at any other claim.
     */
    static AuditTarget alignedShuffleEpochs(double epsilon, boolean shuffled) {
        return alignedShuffleEpochs(epsilon, SHUFFLE_N, SHUFFLE_EPOCHS, shuffled,
                epsilon == 1 ? SHUFFLE_TEST_AT_EPS1 : Double.NaN);
    }

    /**
     * The aligned shuffle pair over several epochs, batches of one: n − 1 records with clipped gradient
     * −C·e_1, and the canary (+C·e_1, on D′) or the null record (0, on D) — the pair of
     * {@link #alignedShuffle}, whose shuffled batch sums are −C + noise except at the one step of each
     * epoch holding the canary (+C) or the null record (0). The statistic is the per-epoch likelihood
     * ratio of that pair ({@link Statistics#alignedShuffleLlr}), summed over the epochs of a dynamic
     * shuffle. With {@code shuffled} the honest run draws the dynamic shuffle it is accounted for (ABLQ,
     * zero-out); otherwise Poisson batches at q = 1/n accounted by PLD, the claim the
     * {@code shuffle-as-poisson} mutant makes for its shuffled batches.
     *
     * @param threshold the test fixed in advance, or NaN to choose it on the selection half
     */
    static AuditTarget alignedShuffleEpochs(double epsilon, int n, int epochs, boolean shuffled, double threshold) {
        double[][] rows = new double[n - 1][D];
        double[] y = new double[n - 1];
        for (int i = 0; i < n - 1; i++) {
            rows[i][1] = 1;
            y[i] = Canaries.FAR_LABEL;
        }
        NeighbouringPair pair = Canaries.zeroOut(Dataset.of(rows, y, 1.0),
                Canaries.record(D, 1, 1.0, -Canaries.FAR_LABEL, 1.0), Canaries.axis(D, 1, 1),
                "canary x = e_1, y = -1e6 (clipped gradient +C e_1); the other records x = e_1, y = 1e6 (clipped "
                        + "gradient -C e_1)");
        PrivacyAccountant acc = shuffled ? ABLQ : pld();
        String name = shuffled ? "aligned-shuffle-epochs-ablq" : "aligned-shuffle-epochs";
        Set<Mutation> mutants = shuffled ? Set.of() : Set.of(Mutation.SHUFFLE_AS_POISSON);
        return new AuditTarget("dp-sgd", name, PrivacyBudget.of(epsilon, 1e-5), pair, LOSS, ConvexSets.unconstrained(),
                (m, o) -> NoisySgd.builder().sampler(shuffled ? Samplers.byName("shuffle-dynamic") : Samplers.poisson())
                        .batchSize(1).epochs(epochs).clipNorm(CLIP).learningRate(1).accountant(acc).mutation(m)
                        .observer(o).build(),
                Statistics.alignedShuffleLlr(n, 1, threshold), mutants,
                shuffled ? ABLQ : new CurveAccountant(acc, new RdpAccountant()), null,
                "zero-out, n = " + n + ", batches of 1, " + epochs + " epochs (" + (shuffled
                        ? "dynamic shuffle, ABLQ accounting" : "Poisson at q = 1/n, PLD accounting")
                        + "); the aligned shuffled pair's log-likelihood ratio, summed over epochs"
                        + (Double.isNaN(threshold) ? "" : ", a test fixed in advance"));
    }

    /**
     * {@code nsgd} (the BFTT19 preset: T, m and η from the theorem, clip norm L, averaged iterate) on n =
     * 200 records in the ℓ2 ball of radius 1, white-box with the Poisson-Gaussian log-likelihood ratio.
     * The clip norm is the loss's own gradient bound, so {@code no-clipping} is the identity here, and the
     * preset implements neither sampling mutant.
     */
    static AuditTarget nsgd(double epsilon) {
        Dataset others = Canaries.background(199, D, 1, 1.0, false, 12);
        NeighbouringPair pair = Canaries.addRemove(others, gradientCanary(), canaryDirection(),
                "gradient canary x = e_1, y = 1e6 (gradient -L e_1 at every step; no other record uses feature 1)");
        PrivacyAccountant acc = pld();
        return new AuditTarget("nsgd", "isolated-poisson", PrivacyBudget.of(epsilon, 1e-5), pair, LOSS,
                ConvexSets.l2Ball(1.0), (m, o) -> Bftt19Sgd.builder().accountant(acc).mutation(m).observer(o).build(),
                Statistics.poissonGaussianLlr(1.0), Set.of(Mutation.HALF_NOISE),
                new CurveAccountant(acc, new RdpAccountant()), null,
                "n = 200, the theorem's T and q = m/n; the log-likelihood ratio on the noisy sums' projections on "
                        + "-e_1");
    }

    /**
     * {@code prox-sgd}: the BFTT19 preset on the Moreau envelope of the absolute loss (n = 50, ℓ2 ball
     * of radius 1), white-box through the wrapped noisy SGD's releases. The canary's envelope gradient
     * is saturated at −L·e_1 by its far label.
     */
    static AuditTarget proxSgd(double epsilon) {
        Dataset others = Canaries.background(49, D, 1, 1.0, false, 13);
        NeighbouringPair pair = Canaries.addRemove(others, gradientCanary(), canaryDirection(),
                "gradient canary x = e_1, y = 1e6 (envelope gradient -L e_1 at every step; no other record uses "
                        + "feature 1)");
        PrivacyAccountant acc = pld();
        return new AuditTarget("prox-sgd", "isolated-poisson", PrivacyBudget.of(epsilon, 1e-5), pair,
                Losses.absolute(), ConvexSets.l2Ball(1.0),
                (m, o) -> ProxSgd.builder().accountant(acc).mutation(m).observer(o).build(),
                Statistics.poissonGaussianLlr(1.0), Set.of(Mutation.HALF_NOISE),
                new CurveAccountant(acc, new RdpAccountant()), null,
                "n = 50, absolute loss smoothed by the inner prox solve; the wrapped preset's T and q; the "
                        + "log-likelihood ratio on the noisy sums' projections on -e_1");
    }

    /**
     * Black-box input-space canary for {@code dp-sgd}: logistic regression, the canary x = e_1, y = +1 in a
     * feature no other record uses, the statistic minus its loss on the released model (membership
     * inference). Weaker than the gradient canary: its gradient shrinks as the model fits it.
     */
    static AuditTarget inputSpace(double epsilon) {
        Dataset others = Canaries.background(OTHERS, D, 1, 1.0, true, 14);
        Dataset canary = Canaries.record(D, 1, 1.0, 1, 1.0);
        NeighbouringPair pair = Canaries.addRemove(others, canary, Canaries.axis(D, 1, 1),
                "input-space canary x = e_1, y = +1 (no other record uses feature 1)");
        PrivacyAccountant acc = pld();
        return new AuditTarget("dp-sgd", "input-space", PrivacyBudget.of(epsilon, 1e-5), pair, Losses.logistic(),
                ConvexSets.unconstrained(),
                (m, o) -> NoisySgd.builder().batchSize(50).epochs(5).clipNorm(0.5).learningRate(1)
                        .accountant(acc).mutation(m).observer(o).build(),
                Statistics.canaryLoss(Losses.logistic(), canary), Set.of(Mutation.HALF_NOISE),
                new CurveAccountant(acc, new RdpAccountant()), null,
                "q = 1/2, T = 10, clip 0.5; minus the canary's logistic loss on the released model (black-box)");
    }
}
