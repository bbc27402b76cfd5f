package org.dpopt.audit;

import java.util.Set;
import org.dpopt.accounting.AdvancedCompositionAccountant;
import org.dpopt.accounting.BasicCompositionAccountant;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.accounting.RdpAccountant;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.geometry.LpBall;
import org.dpopt.geometry.Polytopes;
import org.dpopt.loss.Loss;
import org.dpopt.loss.Losses;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.Preset;
import org.dpopt.optim.frankwolfe.NoisyFrankWolfe;
import org.dpopt.optim.frankwolfe.NoisyStochasticFrankWolfe;
import org.dpopt.optim.frankwolfe.VarianceReducedFrankWolfe;
import org.dpopt.optim.mirror.ProximallyGuidedMirrorDescent;
import org.dpopt.optim.objpert.ApproximateObjectivePerturbation;
import org.dpopt.optim.objpert.ObjectivePerturbation;
import org.dpopt.optim.smoothing.PhasedSgd;
import org.dpopt.optim.core.Mutation;
import org.dpopt.sampling.RecordOrder;

/**
 * Single-canary audit configurations of the smoothing, mirror, objective-perturbation and Frank–Wolfe
 * families: black-box on the released model, each optimizer built with the audit's mutant and
 * observer. The configurations with the power to catch the mutants at CI size are in
 * {@link MultiCanaryAudits}.
 */
final class FamilyAudits {
    private FamilyAudits() {
    }

    /** Basic composition under replace-one, memoized (shared with {@link MultiCanaryAudits}). */
    static final PrivacyAccountant BASIC_REPLACE =
            MemoizingAccountant.of(new BasicCompositionAccountant(NeighboringRelation.REPLACE_ONE));
    /** Advanced composition under replace-one, memoized (shared with {@link MultiCanaryAudits}). */
    static final PrivacyAccountant ADVANCED_REPLACE =
            MemoizingAccountant.of(new AdvancedCompositionAccountant(NeighboringRelation.REPLACE_ONE));
    private static final PrivacyAccountant RDP_REPLACE = MemoizingAccountant.of(new RdpAccountant(
            RdpAccountant.DEFAULT_ORDERS, RdpAccountant.Conversion.IMPROVED, NeighboringRelation.REPLACE_ONE));
    /** RDP under add/remove-one, memoized (shared with {@link CheckAudits}). */
    static final PrivacyAccountant RDP_ADD_REMOVE = MemoizingAccountant.of(new RdpAccountant());

    static final int D = 2;
    static final Loss HUBER = Losses.huber(1.0);

    /** x = e_1 with a far label of the given sign: GLL derivative −sign·L₀ at every reachable w. */
    private static Dataset far(double sign) {
        return Canaries.record(D, 1, 1.0, sign * Canaries.FAR_LABEL, 1.0);
    }

    /**
     * Replace-one with 99 null records (their scores and gradients are 0): the canary x = e_1, y = 1e6
     * (gradient −e_1, favours vertex +e_1) replacing x = e_1, y = −1e6.
     */
    private static NeighbouringPair nullOthersReplaceOne() {
        Dataset others = Dataset.of(new double[99][D], new double[99], 1.0);
        return Canaries.replaceOne(others, far(-1), far(1), Canaries.axis(D, 1, 1),
                "canary x = e_1, y = 1e6 (gradient -e_1; favours vertex +e_1) replacing x = e_1, y = -1e6; the "
                        + "other records are 0");
    }

    /** Mutants of the families whose releases are Gaussian. */
    static final Set<Mutation> GAUSSIAN_MUTANTS = Set.of(Mutation.HALF_NOISE, Mutation.HALF_SENSITIVITY);
    /** Phased-SGD: its clip norm is the loss's own Lipschitz bound, so {@code no-clipping} is the identity. */
    static final Set<Mutation> PHASED_MUTANTS = GAUSSIAN_MUTANTS;
    /** Mirror descent clips at the loss's own Lipschitz bound, so {@code no-clipping} is the identity. */
    static final Set<Mutation> MIRROR_MUTANTS = GAUSSIAN_MUTANTS;
    /**
     * Objective perturbation, both variants: the perturbation's σ scales with the per-record gradient
     * bound, so {@code half-sensitivity} halves it (and, for SVRG, the Gaussian output release's Δ).
     */
    static final Set<Mutation> OBJPERT_MUTANTS = Set.of(Mutation.HALF_NOISE, Mutation.HALF_SENSITIVITY,
            Mutation.OBJPERT_BETA);
    /** Report-noisy-max. */
    static final Set<Mutation> RNM_MUTANTS = Set.of(Mutation.RNM_HALF_SCALE, Mutation.HALF_NOISE);

    /**
     * {@code phased-sgd}, the record in the phase that reaches the output: n = 64 in the given order with
     * the canary at row 0, the first step of phase 1. Every phase starts from the previous phase's noisy
     * output, so along e_1 (which no other record uses) the released model is the sum of the canary's
     * shift and every phase's noise; the first phase has both the largest shift (its average moves by
     * 2η_1 = Δ_1 when the canary's gradient −e_1 replaces +e_1) and the largest noise zΔ_1, the later
     * phases' noise adds a factor √(1 + 1/16 + …) ≈ 1.03. The released w_1 is then a Gaussian pair with
     * μ ≈ 0.97/z, the ledger's worst part being 1/z (the last phase, whose one record is drowned by the
     * earlier phases' noise, is not the worst place for a canary in the output).
     */
    static AuditTarget phasedSgd(double epsilon) {
        Dataset others = Canaries.background(63, D, 1, 1.0, false, 21);
        NeighbouringPair pair = new NeighbouringPair(Canaries.concat(far(-1), others), Canaries.concat(far(1), others),
                0, NeighboringRelation.REPLACE_ONE, Canaries.axis(D, 1, -1), far(1), "row 0 (the first step of phase "
                        + "1): canary x = e_1, y = 1e6 (gradient -e_1) replacing x = e_1, y = -1e6 (gradient +e_1); "
                        + "replace-one");
        return new AuditTarget("phased-sgd", "first-phase", PrivacyBudget.of(epsilon, 1e-5), pair, HUBER,
                ConvexSets.unconstrained(),
                (m, o) -> PhasedSgd.builder().order(RecordOrder.GIVEN).accountant(BASIC_REPLACE).mutation(m)
                        .observer(o).build(),
                Statistics.modelProjection(Canaries.axis(D, 1, 1)), PHASED_MUTANTS, BASIC_REPLACE, BASIC_REPLACE,
                "n = 64, records in the given order; the released model's w_1 (black-box)");
    }

    /**
     * Objective perturbation, a record at the sensitivity bound: the canary and the record it replaces
     * have derivatives −L₀ and +L₀ along e_1 (‖∇f(w; z) − ∇f(w; z′)‖ = 2L = Δ_G), nobody else uses
     * feature 1, and λ = 0.05 ≥ β/(εn) fixed; the minimizer's w_1 = −(±L + G_1)/(2λn) is then a Gaussian
     * pair with μ = Δ_G/σ_G. The released model's −w_1 is the statistic.
     */
    static AuditTarget objectivePerturbation(double epsilon, boolean svrg) {
        Dataset others = Canaries.background(99, D, 1, 1.0, false, 22);
        NeighbouringPair pair = Canaries.replaceOne(others, far(-1), far(1), Canaries.axis(D, 1, -1),
                "canary x = e_1, y = 1e6 (derivative -L) replacing x = e_1, y = -1e6 (derivative +L): the "
                        + "linear-term sensitivity 2L");
        String name = svrg ? "objective-perturbation-svrg" : "objective-perturbation";
        return new AuditTarget(name, "sensitivity-bound", PrivacyBudget.of(epsilon, 1e-5), pair, HUBER,
                svrg ? ConvexSets.l2Ball(10) : ConvexSets.unconstrained(),
                (m, o) -> svrg ? ApproximateObjectivePerturbation.builder().lambda(0.05).mutation(m).observer(o).build()
                        : ObjectivePerturbation.builder().lambda(0.05).mutation(m).observer(o).build(),
                Statistics.modelProjection(Canaries.axis(D, 1, 1)), OBJPERT_MUTANTS, BASIC_REPLACE,
                BASIC_REPLACE, "n = 100, lambda = 0.05; the released model's w_1 (black-box)");
    }

    /**
     * {@code noisy-frank-wolfe} with one step over the ℓ1 ball (4 vertices ±e_0, ±e_1), a record that shifts
     * the vertex scores maximally: the canary moves ⟨±e_1, g⟩ by ∓L₀/n and the record it replaces by
     * ±L₀/n (a change of Δ on both, in opposite directions); the other records are null (their scores
     * are 0). With T = 1 the released model is the selected vertex, so black-box sees the selection.
     */
    static AuditTarget noisyFrankWolfe(double epsilon) {
        return nullOthersTarget("noisy-frank-wolfe", "one-step", epsilon, Polytopes.l1Ball(1.0),
                (m, o) -> NoisyFrankWolfe.builder().iterations(1).mutation(m).observer(o).build(), RNM_MUTANTS,
                ADVANCED_REPLACE, "n = 100, T = 1 over the l1 ball; the released vertex's w_1 (black-box = the selection)");
    }

    /**
     * {@code vr-frank-wolfe}'s one-pass report-noisy-max schedule (the practical default before the Poisson
     * batches, reached with {@code passes(1)}): n = 100 over the ℓ1 ball, the same canary; black-box, the
     * released iterate's w_1.
     */
    static AuditTarget vrFrankWolfe(double epsilon) {
        return nullOthersTarget("vr-frank-wolfe", "one-pass", epsilon, Polytopes.l1Ball(1.0),
                (m, o) -> VarianceReducedFrankWolfe.builder().passes(1).mutation(m).observer(o).build(), RNM_MUTANTS,
                ADVANCED_REPLACE,
                "n = 100, the one-pass schedule (passes(1), the last iterate); the released iterate's w_1 (black-box)");
    }

    /**
     * {@code noisy-sfw}, the paper preset's one-pass schedule: n = 100 over the ℓ2 ball, the same canary;
     * black-box, the released iterate's w_1.
     */
    static AuditTarget noisySfw(double epsilon) {
        return nullOthersTarget("noisy-sfw", "one-pass", epsilon, new LpBall(2, 1.0),
                (m, o) -> NoisyStochasticFrankWolfe.builder().preset(Preset.PAPER).mutation(m).observer(o).build(),
                GAUSSIAN_MUTANTS, RDP_REPLACE,
                "n = 100, the paper preset's one-pass schedule over the l2 ball; the released iterate's w_1 "
                        + "(black-box)");
    }

    /**
     * A black-box target on the null-others replace-one pair (n = 100, Huber loss) whose statistic is the
     * released model's w_1, with one accountant for the curve and the claim.
     */
    private static AuditTarget nullOthersTarget(String algorithm, String design, double epsilon, ConvexSet domain,
            AuditTarget.OptimizerFactory factory, Set<Mutation> mutants, PrivacyAccountant accountant, String notes) {
        return new AuditTarget(algorithm, design, PrivacyBudget.of(epsilon, 1e-5), nullOthersReplaceOne(), HUBER,
                domain, factory, Statistics.modelProjection(Canaries.axis(D, 1, 1)), mutants, accountant, accountant,
                notes);
    }

    /**
     * {@code noisy-sfw} with K = 100 full-batch passes (n = 100, so K = 100 releases; the library's
     * {@code passes(100)}, the practical default before the Poisson batches): the
     * same canary over null others, so every release is ∓(L/n)e_1 plus the Gaussian noise whatever the
     * iterate; white-box, −Σ_t ⟨v_t, e_1⟩ over the K releases, the Neyman–Pearson statistic of the pair.
     */
    static AuditTarget noisySfwPasses(double epsilon) {
        NeighbouringPair pair = nullOthersReplaceOne();
        return new AuditTarget("noisy-sfw", "full-batch-passes", PrivacyBudget.of(epsilon, 1e-5), pair, HUBER,
                new LpBall(2, 1.0),
                (m, o) -> NoisyStochasticFrankWolfe.builder().passes(100).mutation(m).observer(o).build(),
                Statistics.of("release-sum", true, r -> {
                    double sum = 0;
                    for (int t = 0; t < r.releases(); t++) {
                        sum -= r.projections()[t];
                    }
                    return sum;
                }), GAUSSIAN_MUTANTS, RDP_REPLACE, RDP_REPLACE,
                "n = 100, K = 100 full-batch passes; the sum of the canary coordinate "
                        + "of the K noisy gradients (white-box)");
    }

    /**
     * {@code pg-mirror-descent}: n = 200 in the ℓ2 ball of radius 1 (p = 2), zero-out pair with the gradient
     * canary (a null record contributes nothing, as its absence would), T_out = 2 rounds of K = 2 phases;
     * black-box, the released iterate's w_1. The canary reaches the output only through its part, which
     * its random label picks.
     */
    static AuditTarget pgMirrorDescent(double epsilon) {
        Dataset others = Canaries.background(199, D, 1, 1.0, false, 23);
        NeighbouringPair pair = Canaries.zeroOut(others, far(1), Canaries.axis(D, 1, -1),
                "gradient canary x = e_1, y = 1e6 (gradient -e_1); no other record uses feature 1");
        return new AuditTarget("pg-mirror-descent", "zero-out", PrivacyBudget.of(epsilon, 1e-5), pair, HUBER,
                ConvexSets.l2Ball(1.0),
                (m, o) -> ProximallyGuidedMirrorDescent.builder().rho(1.0).rounds(2).innerPhases(2)
                        .diagnosticIterations(0).accountant(RDP_ADD_REMOVE).mutation(m).observer(o).build(),
                Statistics.modelProjection(Canaries.axis(D, 1, 1)), MIRROR_MUTANTS, RDP_ADD_REMOVE, RDP_ADD_REMOVE,
                "n = 200, rho = 1, 2 x 2 parts; the released iterate's w_1 (black-box)");
    }
}
