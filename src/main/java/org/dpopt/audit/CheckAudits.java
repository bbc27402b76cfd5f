package org.dpopt.audit;

import java.util.function.Function;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.geometry.Polytopes;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.Losses;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.check.ConstantCheck;
import org.dpopt.optim.core.Mutation;
import org.dpopt.optim.frankwolfe.NoisyFrankWolfe;
import org.dpopt.optim.sgd.NoisySgd;

/**
 * Audit configurations of the checks made on a trained model before it is released
 * ({@link ConstantCheck}): black-box on the released model, the check and the optimizer it checks both
 * built with the audit's mutant.
 *
 * <p><b>{@code constant-check/label-flip-tie}.</b> The trained stage is one step of noisy Frank–Wolfe
 * over the ℓ1 ball of radius {@value #RADIUS} in (x, c) (one feature x and the intercept's column
 * c = {@value #INTERCEPT}), whose release is the selected vertex: A anchors x = 1, y = 1 pull it to
 * w = +r·e_0 by about 0.1·A·ε_t Laplace scales of its selection ({@link #anchors}), so its output is
 * fixed up to a probability below 3·10⁻⁸ per run and predicts "positive" exactly where x &gt; 0. The other rows:
 * A negatives at x = 0.01 (predicted positive: wrong; their pull is a hundredth of an anchor's), and the
 * canary's slot, x = −0.01 (predicted negative). The pair flips the slot's label (replace-one): on D
 * it is y = 0 (a negative the model labels correctly), on D′ the canary y = 1 (a positive it labels
 * wrongly). So the check's three counts [correct, negatives, positives] are [A + 1, A + 1, A] on D and
 * [A, A, A + 1] on D′: the positive count gains 2 on both rivals, which is the sensitivity bound of the
 * selection's replace-one scale b = 2/ε₀ (a shift of ε₀ Laplace scales). The check's public margin
 * {@value #MARGIN} scales sets the trained model's head start; the statistic is "the constant classifier
 * of the positive class was released" (an intercept-only model with a positive intercept), a test fixed
 * in advance, so every run evaluates it.
 *
 * <p><b>{@code constant-check/added-row-tie}.</b> The same counts under add/remove-one, where the check's
 * scale is the monotone 1/ε₀: the trained stage is one full-batch step of DP-SGD (q = 1, unconstrained,
 * clip norm = the largest logistic gradient norm at w = 0, intercept column {@value #SGD_INTERCEPT}), whose
 * Gaussian noise moves the predictions of the weak rows unless the anchors' pull beats it by many
 * standard deviations ({@link #sgdAnchors}). D: A anchors x = 1, y = 1 and A + 1 negatives x = 0.2
 * (labelled wrongly); D′ adds the canary x = −0.2, y = 1 (labelled wrongly). The counts are
 * [A, A + 1, A] on D and [A, A + 1, A + 1] on D′: only the positive count moves, by 1, the sensitivity
 * bound of each count, which the monotone scale turns into ε₀ scales on both rivals. Margin
 * {@value #SGD_MARGIN} scales; the same fixed test.
 *
 * <p>The claim is the whole plan's ε: the check spends the share {@value #SHARE} of it, the trained step
 * the rest, so ε₀ = 0.99 ε dominates and the trained stage, whose output the canary does not change, adds
 * only its own ε_t = 0.01 ε to the claim.
 */
final class CheckAudits {
    private CheckAudits() {
    }

    /** The share of ε the audited check spends. */
    static final double SHARE = 0.99;
    /** The check's public head start of the trained model, in Laplace scales. */
    static final double MARGIN = 1.4;
    /** The constant of the intercept's column (the library's default for rows of norm ≤ 1). */
    static final double INTERCEPT = 0.5;
    /** The radius of the ℓ1 ball the trained step selects a vertex of. */
    static final double RADIUS = 0.1;
    /** |x| of the wrong negatives and of the canary's slot. */
    static final double WEAK = 0.01;
    /**
     * Most anchors of either design (a claimed ε below 0.1 would want more: the trained stage is then pinned
     * less firmly, which weakens the audit but leaves it valid — every run is the real mechanism).
     */
    static final int MAX_ANCHORS = 200_000;

    /**
     * The anchors A for a claimed ε: ⌈200/ε_t⌉, ε_t = (1 − {@value #SHARE})ε the trained step's budget. At
     * w_0 = r·e_0 the logistic derivatives are ≈ ∓1/2, so the vertex +r·e_0 leads the next one (the
     * intercept's, pulled by the unbalanced labels only through σ(r) − 1/2) by about 0.46·A·r/n, while
     * the selection's scale is b_t = 2Δ/ε_t with Δ = 2·√(1 + c²)·r/n: a lead of 0.10·A·ε_t ≥ 20 scales.
     */
    static int anchors(double epsilon) {
        return anchorsFor(200, epsilon);
    }

    /** ⌈k/ε_t⌉ anchors, at most {@value #MAX_ANCHORS}, with ε_t = (1 − {@value #SHARE})ε the trained stage's budget. */
    private static int anchorsFor(double k, double epsilon) {
        double trained = (1 - SHARE) * Checks.epsilon("epsilon", epsilon);
        return (int) Math.min(MAX_ANCHORS, Math.ceil(k / trained));
    }

    /**
     * The rows of either design, one feature: A anchors x = 1, y = 1, then {@code negatives} rows
     * x = {@code weak}, y = 0, then, unless {@code last} is null, the row x = −{@code weak}, y = {@code last}.
     */
    private static Dataset rows(int anchors, int negatives, double weak, Double last) {
        int n = anchors + negatives + (last != null ? 1 : 0);
        double[][] x = new double[n][1];
        double[] y = new double[n];
        for (int i = 0; i < anchors; i++) {
            x[i][0] = 1;
            y[i] = 1;
        }
        for (int i = anchors; i < anchors + negatives; i++) {
            x[i][0] = weak;
        }
        if (last != null) {
            x[n - 1][0] = -weak;
            y[n - 1] = last;
        }
        return Dataset.of(x, y, 1.0);
    }

    /** The canary of either design: the one row x = −{@code weak}, y = 1. */
    private static Dataset canary(double weak) {
        return Dataset.of(new double[][] {{-weak}}, new double[] {1}, 1.0);
    }

    /**
     * A design of the check: the {@code constant-check} target on the pair, whose optimizer is the check,
     * with the audit's share and {@code margin}, of the trained stage {@code trained} builds (both with
     * the audit's mutant), and whose statistic is the fixed test "the positive constant classifier was
     * released".
     */
    private static AuditTarget design(String name, double epsilon, NeighbouringPair pair, ConvexSet domain,
            Function<Mutation, PrivateOptimizer> trained, double margin, PrivacyAccountant curve, String notes) {
        return new AuditTarget("constant-check", name, PrivacyBudget.of(epsilon, 1e-5), pair, Losses.logistic(),
                domain, (m, o) -> ConstantCheck.builder(trained.apply(m)).share(SHARE).margin(margin).mutation(m)
                        .observer(o).build(),
                Statistics.positiveConstantReleased(), FamilyAudits.RNM_MUTANTS, curve, null, notes);
    }

    /** {@code constant-check}: the label-flip pair at the selection's sensitivity bound (see the class comment). */
    static AuditTarget constantCheck(double epsilon) {
        int a = anchors(epsilon);
        NeighbouringPair pair = new NeighbouringPair(rows(a, a, WEAK, 0.0), rows(a, a, WEAK, 1.0), 0,
                NeighboringRelation.REPLACE_ONE, Canaries.axis(2, 1, 1), canary(WEAK), "canary x = -0.01, y = 1 (labelled wrongly by the trained model) "
                        + "replacing x = -0.01, y = 0; " + a + " anchors x = 1, y = 1 and " + a + " negatives x = 0.01 "
                        + "(labelled wrongly): counts [correct, negatives, positives] [A+1, A+1, A] on D, [A, A, A+1] "
                        + "on D'; replace-one", INTERCEPT);
        return design("label-flip-tie", epsilon, pair, Polytopes.l1Ball(RADIUS),
                m -> NoisyFrankWolfe.builder().iterations(1).mutation(m).build(), MARGIN,
                FamilyAudits.ADVANCED_REPLACE, "share 0.99 of eps on the check of a one-step noisy-frank-wolfe "
                        + "model (n = 2A + 1, A = " + a + "), margin " + MARGIN + " scales; the fixed test 'the positive "
                        + "constant classifier was released' on every run");
    }

    /** The check's margin in the add/remove design, in Laplace scales. */
    static final double SGD_MARGIN = 3.0;
    /** The intercept's column in the add/remove design (small: its noise moves the weak rows' predictions). */
    static final double SGD_INTERCEPT = 0.1;
    /** |x| of the weak rows of the add/remove design. */
    static final double SGD_WEAK = 0.2;

    /**
     * The anchors A of the add/remove design: ⌈60/ε_t⌉. With the logistic derivative ∓½ at w = 0 and no
     * clipping, the noisy sum along e_0 is −½A + ½s(A + 1) (+ ½s with the canary) + ξ_0, s = {@value #SGD_WEAK},
     * and along the intercept's coordinate ½c(N − P) + ξ_int, ξ ~ N(0, (zC)²) per coordinate; the step
     * releases w = −(sum)/n, so a weak row x = ±s is predicted as w = +e_0 would predict it while about
     * ½As(1 − s) exceeds ⟨ξ, (±s, c)⟩ (the anchors' margin is larger still): 15.1 standard deviations at
     * ε = 4 (z = 70.7) and 17.5 at ε = 1 (z = 244), so a mis-predicted row has probability below 10⁻⁴⁰ per
     * run.
     */
    static int sgdAnchors(double epsilon) {
        return anchorsFor(60, epsilon);
    }

    /** {@code constant-check}, add/remove-one: one positive row added (see the class comment). */
    static AuditTarget constantCheckAddRemove(double epsilon) {
        int a = sgdAnchors(epsilon);
        Dataset with = rows(a, a + 1, SGD_WEAK, 1.0);
        NeighbouringPair pair = new NeighbouringPair(rows(a, a + 1, SGD_WEAK, null), with, with.size(),
                NeighboringRelation.ADD_OR_REMOVE_ONE, Canaries.axis(2, 1, 1), canary(SGD_WEAK),
                "canary x = -0.2, y = 1 (labelled wrongly by the trained model) added to " + a + " anchors x = 1, "
                        + "y = 1 and " + (a + 1) + " negatives x = 0.2 (labelled wrongly): counts [correct, negatives, positives] [A, A+1, A] on "
                        + "D, [A, A+1, A+1] on D'; add/remove-one", SGD_INTERCEPT);
        double clip = 0.5 * Math.hypot(1, SGD_INTERCEPT);
        int n = with.size();
        return design("added-row-tie", epsilon, pair, ConvexSets.unconstrained(),
                m -> NoisySgd.builder().batchSize(n).epochs(1).clipNorm(clip).learningRate(1)
                        .accountant(SgdAudits.pld()).mutation(m).build(), SGD_MARGIN, FamilyAudits.RDP_ADD_REMOVE,
                "share 0.99 of eps on the check of a one-step full-batch dp-sgd model (n = 2A + 2, A = " + a
                        + "), margin " + SGD_MARGIN + " scales; the fixed test 'the positive constant "
                        + "classifier was released' on every run");
    }
}
