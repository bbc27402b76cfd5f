package org.dpopt.audit;

import java.util.Set;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.accounting.RdpAccountant;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.geometry.Polytopes;
import org.dpopt.loss.Losses;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.core.Mutation;
import org.dpopt.optim.frankwolfe.NoisyFrankWolfe;
import org.dpopt.optim.objpert.ApproximateObjectivePerturbation;
import org.dpopt.optim.objpert.ObjectivePerturbation;
import org.dpopt.optim.sgd.Bftt19Sgd;
import org.dpopt.optim.sgd.NoisySgd;
import org.dpopt.optim.smoothing.PhasedSgd;
import org.dpopt.optim.smoothing.ProxSgd;
import org.dpopt.sampling.RecordOrder;

/**
 * Audit configurations with many canaries per run: canary j sits on its own coordinate e_{1+j}, which
 * no other record uses, so each run gives k independent trials (theory-notes/auditing.md, §7). These
 * are the configurations that give the mutants' audits their power at CI size. Background records use
 * feature 0 only.
 */
final class MultiCanaryAudits {
    private MultiCanaryAudits() {
    }

    private static final PrivacyAccountant BASIC_REPLACE = FamilyAudits.BASIC_REPLACE;
    private static final PrivacyAccountant ADVANCED_REPLACE = FamilyAudits.ADVANCED_REPLACE;

    /** Phased-SGD: canaries in the first steps of phase 1, and the dataset size. */
    static final int PHASED_K = 128;
    static final int PHASED_N = 1024;
    /** Mirror descent: canaries per run (2 × 2 parts: more do not help, the mixture over parts is the limit). */
    static final int MIRROR_K = 50;
    /** Prox-SGD: canaries of n records, and the inner solves' relative accuracy. */
    static final int PROX_K = 80;
    static final int PROX_N = 200;
    static final double PROX_INNER_ACCURACY = 1.0;
    /** Exact objective perturbation: canaries per run. */
    static final int OBJ_K = 150;
    /**
     * Canaries of the SVRG variant's pair: twice the exact variant's, so that its half-noise mutant is
     * flagged at 2000 runs (ε_lower 4.55 &gt; 4; 3.95 with 150) while each run stays fast (λ = 2).
     */
    static final int OBJ_SVRG_K = 300;
    /** The SVRG variant's λ and objective share of ε in its sensitivity-bound configuration. */
    static final double SVRG_LAMBDA = 2;
    static final double SVRG_SHARE = 0.99;
    /** Canaries of the SVRG curvature configuration (n = k + 1: the mutant's condition number grows with n). */
    static final int SVRG_CURVATURE_K = 10;

    /** Canaries per run of the SGD-family configurations. */
    static final int K = 100;
    private static final double FAR = Canaries.FAR_LABEL;

    private static CurveAccountant pldCurve() {
        return new CurveAccountant(SgdAudits.pld(), new RdpAccountant());
    }

    /**
     * {@code dp-sgd}, white-box, Poisson batches (q = 1/2, T = 2·epochs, clip 0.1): 100 background
     * records and k = 100 gradient canaries x_j = e_{1+j}, y = 10⁶ (clipped gradient −C·e_{1+j} at every
     * step), each its own add/remove trial; the Poisson-Gaussian log-likelihood ratio on canary j's
     * coordinate of every noisy sum. The long schedule (T = 40) is the one that exposes
     * {@code half-rate-accounting}: accounting at q/2 lowers the noise more, relative to what q needs,
     * the more steps are composed (actual ε of the mutant by the PLD accountant: 7.3 at T = 10, 8.4 at
     * T = 40, for a claimed 4).
     */
    static AuditTarget dpSgdPoisson(double epsilon, double epochs, String name, Set<Mutation> mutants) {
        int d = 1 + K;
        Dataset others = Canaries.background(100, d, 1, 1.0, false, 31);
        NeighbouringPair pair = Canaries.addRemoveEach(others, Canaries.onAxes(d, 1, K, 1.0, FAR, 1.0),
                Canaries.axes(d, 1, K, -1), "gradient canaries x_j = e_(1+j), y = 1e6 (clipped gradient -C e_(1+j))");
        PrivacyAccountant acc = SgdAudits.pld();
        return new AuditTarget("dp-sgd", name, PrivacyBudget.of(epsilon, 1e-5), pair, SgdAudits.LOSS,
                ConvexSets.unconstrained(),
                (m, o) -> NoisySgd.builder().batchSize(100).epochs(epochs).clipNorm(SgdAudits.CLIP).learningRate(1)
                        .accountant(acc).mutation(m).observer(o).build(),
                Statistics.poissonGaussianLlr(1.0), mutants, pldCurve(), null,
                "n = 200, q = 1/2, T = " + Math.round(2 * epochs) + "; 100 canaries per run; the log-likelihood ratio "
                        + "of the Poisson-subsampled Gaussian on each canary's coordinate of the noisy sums");
    }

    /**
     * {@code dp-sgd}, black-box, full batch (q = 1, T = 5), each canary aligned against a record of its
     * own: record j has x = e_j, y = −10⁶ (clipped gradient +C·e_j), canary j x = e_j, y = 10⁶ (−C·e_j).
     * With the public normalizer n the canary moves w_j by ηTC/n; divided by the realized size the
     * other record's share moves as well, doubling the shift. The statistic is w_j.
     */
    static AuditTarget dpSgdFullBatch(double epsilon) {
        int d = K;
        Dataset others = Canaries.onAxes(d, 0, K, 1.0, -FAR, 1.0);
        NeighbouringPair pair = Canaries.addRemoveEach(others, Canaries.onAxes(d, 0, K, 1.0, FAR, 1.0),
                Canaries.axes(d, 0, K, 1), "canary j x = e_j, y = 1e6 (clipped gradient -C e_j) against the record "
                        + "x = e_j, y = -1e6 (+C e_j)");
        PrivacyAccountant acc = SgdAudits.pld();
        return new AuditTarget("dp-sgd", "multi-canary-full-batch", PrivacyBudget.of(epsilon, 1e-5), pair,
                SgdAudits.LOSS, ConvexSets.unconstrained(),
                (m, o) -> NoisySgd.builder().batchSize(2 * K).epochs(5).clipNorm(SgdAudits.CLIP).learningRate(1)
                        .accountant(acc).mutation(m).observer(o).build(),
                Statistics.canaryProjection(1), Set.of(Mutation.REALIZED_BATCH, Mutation.HALF_RATE_ACCOUNTING),
                pldCurve(), null, "n = 200, q = 1, T = 5; 100 canaries per run; the released model's w_j (black-box)");
    }

    /** {@code nsgd} (the BFTT19 preset in the ℓ2 unit ball), 100 background records and 100 canaries, white-box. */
    static AuditTarget nsgd(double epsilon) {
        int d = 1 + K;
        Dataset others = Canaries.background(100, d, 1, 1.0, false, 32);
        NeighbouringPair pair = Canaries.addRemoveEach(others, Canaries.onAxes(d, 1, K, 1.0, FAR, 1.0),
                Canaries.axes(d, 1, K, -1), "gradient canaries x_j = e_(1+j), y = 1e6 (gradient -L e_(1+j))");
        PrivacyAccountant acc = SgdAudits.pld();
        return new AuditTarget("nsgd", "multi-canary-poisson", PrivacyBudget.of(epsilon, 1e-5), pair, SgdAudits.LOSS,
                ConvexSets.l2Ball(1.0), (m, o) -> Bftt19Sgd.builder().accountant(acc).mutation(m).observer(o).build(),
                Statistics.poissonGaussianLlr(1.0), Set.of(Mutation.HALF_NOISE, Mutation.HALF_SENSITIVITY),
                pldCurve(), null, "n = 200, the theorem's T and q; 100 canaries per run; the log-likelihood ratio on "
                        + "each canary's coordinate of the noisy sums");
    }

    /**
     * {@code prox-sgd} (absolute loss, ℓ2 unit ball), n = {@value #PROX_N}: {@value #PROX_K} canaries and
     * the rest background records, white-box. The inner proximal solves run at relative accuracy
     * {@value #PROX_INNER_ACCURACY} (15 inner steps instead of the default 1/√n's hundreds): the noisy
     * sums' sensitivity comes from the clip at L, whatever the solves' accuracy, so the privacy path
     * audited is the same, and a canary's envelope gradient stays saturated by its far label. The
     * preset's T = ε²n²/(32 d ln(1/δ)) is 0 at ε = 1 with the 50-record design this replaced, so ε = 1 is
     * audited on the single-canary configuration.
     */
    static AuditTarget proxSgd(double epsilon) {
        int k = PROX_K;
        int d = 1 + k;
        Dataset others = Canaries.background(PROX_N - k, d, 1, 1.0, false, 33);
        NeighbouringPair pair = Canaries.addRemoveEach(others, Canaries.onAxes(d, 1, k, 1.0, FAR, 1.0),
                Canaries.axes(d, 1, k, -1), "gradient canaries x_j = e_(1+j), y = 1e6 (envelope gradient -L e_(1+j))");
        PrivacyAccountant acc = SgdAudits.pld();
        return new AuditTarget("prox-sgd", "multi-canary-poisson", PrivacyBudget.of(epsilon, 1e-5), pair,
                Losses.absolute(), ConvexSets.l2Ball(1.0),
                (m, o) -> ProxSgd.builder().relativeAccuracy(PROX_INNER_ACCURACY).accountant(acc).mutation(m)
                        .observer(o).build(),
                Statistics.poissonGaussianLlr(1.0), Set.of(Mutation.HALF_NOISE, Mutation.HALF_SENSITIVITY),
                pldCurve(), null, "n = " + PROX_N + ", inner accuracy " + PROX_INNER_ACCURACY + "; " + k
                        + " canaries per run; the log-likelihood ratio on each canary's coordinate of the wrapped "
                        + "preset's noisy sums");
    }

    /**
     * {@code phased-sgd}: n = 128 in the given order, the k = 16 canaries in rows 0..15 (the first steps of
     * phase 1), canary j x = e_(1+j), y = 10⁶ (gradient −e_(1+j)) replacing y = −10⁶ (+e_(1+j)); the
     * released w_(1+j) (black-box). A canary at step s of the phase moves the phase's average by a little
     * less than one at step 0: the trials are independent but not identical (§7 of the theory note).
     */
    static AuditTarget phasedSgd(double epsilon) {
        int k = PHASED_K;
        int d = 1 + k;
        Dataset others = Canaries.background(PHASED_N - k, d, 1, 1.0, false, 34);
        Dataset canaries = Canaries.onAxes(d, 1, k, 1.0, FAR, 1.0);
        Dataset replaced = Canaries.onAxes(d, 1, k, 1.0, -FAR, 1.0);
        NeighbouringPair pair = new NeighbouringPair(Canaries.concat(replaced, others),
                Canaries.concat(canaries, others), 0, NeighboringRelation.REPLACE_ONE, Canaries.axes(d, 1, k, 1),
                canaries, "rows 0..15 (the first steps of phase 1): canary x = e_(1+j), y = 1e6 replacing y = -1e6; "
                        + k + " canaries, each its own replace-one trial");
        return new AuditTarget("phased-sgd", "multi-canary-first-phase", PrivacyBudget.of(epsilon, 1e-5), pair,
                FamilyAudits.HUBER, ConvexSets.unconstrained(),
                (m, o) -> PhasedSgd.builder().order(RecordOrder.GIVEN).accountant(BASIC_REPLACE).mutation(m)
                        .observer(o).build(),
                Statistics.partRelease(0, 1), Set.of(Mutation.HALF_NOISE, Mutation.HALF_SENSITIVITY),
                BASIC_REPLACE, BASIC_REPLACE, "n = " + PHASED_N + ", records in the given order; " + k + " canaries per "
                        + "run; the first phase's noisy output, coordinate 1+j (white-box, part 0 of the parallel "
                        + "composition)");
    }

    /**
     * Objective perturbation (exact or SVRG), 10 background records and k = 150 (exact) or 300 (SVRG) canaries at the
     * sensitivity bound: canary j x = e_(1+j), y = 10⁶ (derivative −L) replacing y = −10⁶ (+L). The
     * minimizer is separable across the canary coordinates, and w_(1+j) is a Gaussian pair with μ = Δ_G/σ_G.
     * Exact: λ = 0.05. SVRG: λ = {@value #SVRG_LAMBDA} (a large λ leaves μ unchanged — shift and noise of
     * w_(1+j) both scale with 1/(2λn) — makes the Jacobian term ln(1 + β/(2nλ)) negligible and SVRG's
     * condition number small), the objective's share {@value #SVRG_SHARE} of ε (the output noise then
     * stays at ~15 % of the minimizer's spread; the whole claim is still basic composition of both parts),
     * no domain constraint, and early stopping (the released model is still the certified iterate plus the
     * output noise; only the running time, which the audit does not read, depends on the data).
     */
    static AuditTarget objectivePerturbation(double epsilon, boolean svrg) {
        int k = svrg ? OBJ_SVRG_K : OBJ_K;
        int d = 1 + k;
        // few background records: the solver's cost grows with n·d²
        Dataset others = Canaries.background(10, d, 1, 1.0, false, 35);
        NeighbouringPair pair = Canaries.replaceEach(others, Canaries.onAxes(d, 1, k, 1.0, -FAR, 1.0),
                Canaries.onAxes(d, 1, k, 1.0, FAR, 1.0), Canaries.axes(d, 1, k, 1),
                "canary x_j = e_(1+j), y = 1e6 (derivative -L) replacing y = -1e6 (+L)");
        String name = svrg ? "objective-perturbation-svrg" : "objective-perturbation";
        return new AuditTarget(name, "multi-canary-sensitivity-bound", PrivacyBudget.of(epsilon, 1e-5), pair,
                FamilyAudits.HUBER, ConvexSets.unconstrained(),
                (m, o) -> svrg ? ApproximateObjectivePerturbation.builder().lambda(SVRG_LAMBDA).objectiveShare(SVRG_SHARE)
                        .earlyStop(true).mutation(m).observer(o).build()
                        : ObjectivePerturbation.builder().lambda(0.05).mutation(m).observer(o).build(),
                Statistics.canaryProjection(1), FamilyAudits.GAUSSIAN_MUTANTS, BASIC_REPLACE, BASIC_REPLACE,
                "n = " + (10 + k) + ", lambda = " + (svrg ? SVRG_LAMBDA + ", objective share " + SVRG_SHARE
                        + ", early stop" : "0.05") + "; " + k + " canaries per run; the released model's w_(1+j) "
                        + "(black-box)");
    }

    /**
     * Objective perturbation with canaries in the curved region of the loss: canary j x = e_(1+j), y = 0
     * (Huber residual near 0, curvature 1 along e_(1+j)) replacing a null record. The theorem's
     * condition β ≤ εnλ bounds how much one record's curvature changes the density of the minimizer (a
     * Jacobian factor 1 + β/(2nλ)); with λ too small (the {@code objpert-beta} mutant) the canary shrinks
     * its coordinate's spread by that factor. The statistic is −|w_(1+j)|.
     */
    static AuditTarget objectivePerturbationCurvature(double epsilon) {
        return new AuditTarget("objective-perturbation", "multi-canary-curvature", PrivacyBudget.of(epsilon, 1e-5),
                curvaturePair(100, K, 36), FamilyAudits.HUBER, ConvexSets.unconstrained(),
                (m, o) -> ObjectivePerturbation.builder().lambda(0.05).mutation(m).observer(o).build(),
                Statistics.canaryShrinkage(), Set.of(Mutation.OBJPERT_BETA), BASIC_REPLACE, BASIC_REPLACE,
                "n = 200, lambda = 0.05 (the mutant: beta/(20 eps n)); 100 canaries per run; -|w_(1+j)| (black-box)");
    }

    /**
     * The curvature pair: k canaries x_j = e_(1+j), y = 0 (curvature 1 along e_(1+j)) each replacing a null
     * record, next to {@code background} records in dimension 1 + k drawn with {@code seed}.
     */
    private static NeighbouringPair curvaturePair(int background, int k, long seed) {
        int d = 1 + k;
        Dataset others = Canaries.background(background, d, 1, 1.0, false, seed);
        Dataset nulls = Dataset.of(new double[k][d], new double[k], 1.0);
        return Canaries.replaceEach(others, nulls, Canaries.onAxes(d, 1, k, 1.0, 0, 1.0), Canaries.axes(d, 1, k, 1),
                "canary x_j = e_(1+j), y = 0 (curvature 1 along e_(1+j)) replacing a null record");
    }

    /**
     * The curvature pair of {@link #objectivePerturbationCurvature} for the SVRG variant, small: k =
     * {@value #SVRG_CURVATURE_K} canaries x_j = e_(1+j), y = 0 replacing null records, one background record
     * (n = 11), λ = {@value #SVRG_LAMBDA}, the objective's share {@value #SVRG_SHARE}, a certified accuracy
     * α = 10⁻¹⁴ (so that the output noise, z·2√(2α/λ), stays far below the quadratic region of the loss
     * even at the mutant's λ), early stop, no constraint. The {@code objpert-beta} mutant's λ =
     * β/(20·sε·n) gives SVRG a condition number of 20·sε·n, which is why n stays small; the shrinkage
     * factor of the canary's coordinate, 1 + 1/(2λn) = 1 + 10·sε, does not depend on n.
     */
    static AuditTarget objectivePerturbationSvrgCurvature(double epsilon) {
        int k = SVRG_CURVATURE_K;
        return new AuditTarget("objective-perturbation-svrg", "multi-canary-curvature", PrivacyBudget.of(epsilon, 1e-5),
                curvaturePair(1, k, 39), FamilyAudits.HUBER, ConvexSets.unconstrained(),
                (m, o) -> ApproximateObjectivePerturbation.builder().lambda(SVRG_LAMBDA).objectiveShare(SVRG_SHARE)
                        .accuracy(1e-14).earlyStop(true).mutation(m).observer(o).build(),
                Statistics.canaryShrinkage(), Set.of(Mutation.OBJPERT_BETA), BASIC_REPLACE, BASIC_REPLACE,
                "n = " + (1 + k) + ", lambda = " + SVRG_LAMBDA + " (the mutant: beta/(20 s eps n)), objective share "
                        + SVRG_SHARE + ", accuracy 1e-14, early stop; " + k + " canaries per run; -|w_(1+j)| (black-box)");
    }

    /**
     * {@code noisy-frank-wolfe}, one step over the ℓ1 ball in d = 1 (vertices ±e_0), a fixed test: the
     * canary x = e_0, y = 10⁶ (gradient −L: favours +e_0) replacing y = −10⁶ (+L), an offset record x =
     * 0.75·e_0, y = −10⁶ and 97 null records. The score gap between the vertices is then −0.25Δ with the
     * canary and 1.75Δ without it (Δ = 2L/n), so "+e_0 selected" sits in the Laplace tail on D, where
     * the likelihood ratio approaches its worst case e^{ε0}. Every run evaluates that one test.
     */
    static AuditTarget noisyFrankWolfe(double epsilon) {
        int d = 1;
        Dataset rest = Canaries.concat(Canaries.record(d, 0, 0.75, -FAR, 1.0), Dataset.of(new double[97][d],
                new double[97], 1.0));
        NeighbouringPair pair = Canaries.replaceOne(rest, Canaries.record(d, 0, 1.0, -FAR, 1.0),
                Canaries.record(d, 0, 1.0, FAR, 1.0), Canaries.axis(d, 0, 1), "canary x = e_0, y = 1e6 (favours "
                        + "vertex +e_0) replacing y = -1e6; an offset record x = 0.75 e_0, y = -1e6; 97 null records");
        return new AuditTarget("noisy-frank-wolfe", "one-step-tail", PrivacyBudget.of(epsilon, 1e-5), pair,
                FamilyAudits.HUBER, Polytopes.l1Ball(1.0),
                (m, o) -> NoisyFrankWolfe.builder().iterations(1).mutation(m).observer(o).build(),
                Statistics.firstSelection(0), Set.of(Mutation.RNM_HALF_SCALE, Mutation.HALF_NOISE), ADVANCED_REPLACE,
                ADVANCED_REPLACE, "n = 100, T = 1 over [-1, 1]; the fixed test 'the selection is +e_0' on every run");
    }

    /**
     * {@code pg-mirror-descent} (ℓ2 unit ball, T_out = 2 rounds of K = 2 phases, each phase one part of a
     * parallel composition over independently labelled records), zero-out with k gradient canaries:
     * each canary's part is uniform and independent of the others', so the trials stay independent; the
     * statistic is the likelihood ratio of the mixture over parts ({@link Statistics#partMixtureLlr}).
     */
    static AuditTarget pgMirrorDescent(double epsilon) {
        return pgMirrorDescent(epsilon, 2, MIRROR_K, "multi-canary-parts");
    }

    /**
     * The same pair with T_out = K = {@code rounds}. With one round of one phase there is a single part:
     * every canary is in it, so the auditor needs no mixture over unknown parts and the statistic reduces
     * to the Poisson-Gaussian log-likelihood ratio over that part's noisy sums. The claim is the
     * accountant's own certified ε for this schedule (the same budget, planned for one part).
     */
    static AuditTarget pgMirrorDescent(double epsilon, int rounds, int k, String design) {
        int d = 1 + k;
        Dataset others = Canaries.background(150, d, 1, 1.0, false, 37);
        Dataset nulls = Dataset.of(new double[k][d], new double[k], 1.0);
        NeighbouringPair pair = new NeighbouringPair(Canaries.concat(others, nulls),
                Canaries.concat(others, Canaries.onAxes(d, 1, k, 1.0, FAR, 1.0)), 0, NeighboringRelation.ZERO_OUT,
                Canaries.axes(d, 1, k, -1), Canaries.record(d, 1, 1.0, FAR, 1.0), "gradient canaries x_j = e_(1+j), "
                        + "y = 1e6 (gradient -e_(1+j)); " + k + " canaries, each its own zero-out trial");
        PrivacyAccountant acc = MemoizingAccountant.of(new RdpAccountant());
        return new AuditTarget("pg-mirror-descent", design, PrivacyBudget.of(epsilon, 1e-5), pair,
                FamilyAudits.HUBER, ConvexSets.l2Ball(1.0),
                (m, o) -> org.dpopt.optim.mirror.ProximallyGuidedMirrorDescent.builder().rho(1.0).rounds(rounds)
                        .innerPhases(rounds).diagnosticIterations(0).accountant(acc).mutation(m).observer(o).build(),
                Statistics.partMixtureLlr(1.0), FamilyAudits.MIRROR_MUTANTS, acc, acc,
                "n = " + (150 + k) + ", rho = 1, " + rounds + " x " + rounds + " parts; " + k + " canaries per run; the mixture-over-parts likelihood ratio "
                        + "of each canary's coordinate of the noisy sums (white-box, part indices observed)");
    }

    /**
     * {@code noisy-sfw} with one round of one step over the ℓ2 unit ball: a single Gaussian release of the
     * gradient over all n = 200 records (replace-one, k = 100 canaries x_j = e_(1+j), y = 10⁶ replacing
     * y = −10⁶), observed white-box on each canary's coordinate.
     */
    static AuditTarget noisySfw(double epsilon) {
        int d = 1 + K;
        Dataset others = Canaries.background(100, d, 1, 1.0, false, 38);
        NeighbouringPair pair = Canaries.replaceEach(others, Canaries.onAxes(d, 1, K, 1.0, -FAR, 1.0),
                Canaries.onAxes(d, 1, K, 1.0, FAR, 1.0), Canaries.axes(d, 1, K, -1),
                "canary x_j = e_(1+j), y = 1e6 (gradient -L e_(1+j)) replacing y = -1e6");
        PrivacyAccountant acc = MemoizingAccountant.of(new RdpAccountant(RdpAccountant.DEFAULT_ORDERS,
                RdpAccountant.Conversion.IMPROVED, NeighboringRelation.REPLACE_ONE));
        return new AuditTarget("noisy-sfw", "multi-canary-one-step", PrivacyBudget.of(epsilon, 1e-5), pair,
                FamilyAudits.HUBER, new org.dpopt.geometry.LpBall(2, 1.0),
                (m, o) -> org.dpopt.optim.frankwolfe.NoisyStochasticFrankWolfe.builder().rounds(1).stepsPerRound(1)
                        .accountant(acc).mutation(m).observer(o).build(),
                Statistics.partRelease(0, 1), FamilyAudits.GAUSSIAN_MUTANTS, acc, acc,
                "n = 200, one round of one step; " + K + " canaries per run; the noisy gradient's coordinate 1+j "
                        + "(white-box)");
    }

    /**
     * {@code vr-frank-wolfe} with one round of one step: the one-step tail design of
     * {@link #noisyFrankWolfe} (a fixed test on the selection).
     */
    static AuditTarget vrFrankWolfe(double epsilon) {
        AuditTarget base = noisyFrankWolfe(epsilon);
        return new AuditTarget("vr-frank-wolfe", "one-step-tail", base.budget(), base.pair(), base.loss(),
                base.domain(), (m, o) -> org.dpopt.optim.frankwolfe.VarianceReducedFrankWolfe.builder().rounds(1)
                        .stepsPerRound(1).accountant(ADVANCED_REPLACE).mutation(m).observer(o).build(),
                base.statistic(), FamilyAudits.RNM_MUTANTS, ADVANCED_REPLACE, ADVANCED_REPLACE,
                "n = 100, one round of one step over [-1, 1]; the fixed test 'the selection is +e_0' on every run");
    }
}
