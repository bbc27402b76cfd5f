package org.dpopt.audit;

import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.Polytopes;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.Losses;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.check.ConstantCheck;
import org.dpopt.optim.frankwolfe.NoisyFrankWolfe;

/**
 * Audit configurations of the checks made on a trained model before it is released
 * ({@link ConstantCheck}): black-box on the released model, the check and the optimizer it checks both
 * built with the audit's mutant.
 *
 * <p><b>{@code constant-check/label-flip-tie}.</b> The trained stage is one step of noisy Frank–Wolfe
 * over the ℓ1 ball of radius {@value #RADIUS} in (x, c) (one feature x and the intercept's column
 * c = {@value #INTERCEPT}), whose release is the selected vertex: A anchors x = 1, y = 1 pull it to
 * w = +r·e_0 by about 0.1·A·ε_t Laplace scales of its selection ({@link #anchors}), so its output is
 * fixed up to a probability below 10⁻⁸ and predicts "positive" exactly where x &gt; 0. The other rows:
 * A negatives at x = 0.01 (predicted positive: wrong; their pull is a hundredth of an anchor's), and the
 * canary's slot, x = −0.01 (predicted negative). The pair flips the slot's label (replace-one): on D
 * it is y = 0 (a negative the model labels correctly), on D′ the canary y = 1 (a positive it labels
 * wrongly). So the check's three counts [correct, negatives, positives] are [A + 1, A + 1, A] on D and
 * [A, A, A + 1] on D′: the positive count gains 2 on both rivals, which is the sensitivity bound of the
 * selection's replace-one scale b = 2/ε₀ (a shift of ε₀ Laplace scales). The check's public margin
 * {@value #MARGIN} scales sets the trained model's head start; the statistic is "the constant classifier
 * of the positive class was released" (the released intercept is positive; the trained vertex has
 * intercept 0 and the negative constant a negative one), a test fixed in advance, so every run
 * evaluates it.
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
    /** Most anchors (a claimed ε below 2·10⁻⁴ would want more; the audit stays valid with fewer). */
    static final int MAX_ANCHORS = 1_000_000;

    /**
     * The anchors A for a claimed ε: ⌈200/ε_t⌉, ε_t = (1 − {@value #SHARE})ε the trained step's budget. At
     * w_0 = r·e_0 the logistic derivatives are ≈ ∓1/2, so the vertex +r·e_0 leads the next one (the
     * intercept's, pulled by the unbalanced labels only through σ(r) − 1/2) by about 0.46·A·r/n, while
     * the selection's scale is b_t = 2Δ/ε_t with Δ = 2·√(1 + c²)·r/n: a lead of 0.10·A·ε_t ≥ 20 scales.
     */
    static int anchors(double epsilon) {
        double trained = (1 - SHARE) * Checks.epsilon("epsilon", epsilon);
        return (int) Math.min(MAX_ANCHORS, Math.ceil(200 / trained));
    }

    private static Dataset rows(int anchors, double slotLabel) {
        int n = 2 * anchors + 1;
        double[][] x = new double[n][1];
        double[] y = new double[n];
        for (int i = 0; i < anchors; i++) {
            x[i][0] = 1;
            y[i] = 1;
            x[anchors + i][0] = WEAK;
        }
        x[n - 1][0] = -WEAK;
        y[n - 1] = slotLabel;
        return Dataset.of(x, y, 1.0);
    }

    /** {@code constant-check}: the label-flip pair at the selection's sensitivity bound (see the class comment). */
    static AuditTarget constantCheck(double epsilon) {
        int a = anchors(epsilon);
        Dataset canary = Dataset.of(new double[][] {{-WEAK}}, new double[] {1}, 1.0);
        NeighbouringPair pair = new NeighbouringPair(rows(a, 0), rows(a, 1), 0, NeighboringRelation.REPLACE_ONE,
                Canaries.axis(2, 1, 1), canary, "canary x = -0.01, y = 1 (labelled wrongly by the trained model) "
                        + "replacing x = -0.01, y = 0; " + a + " anchors x = 1, y = 1 and " + a + " negatives x = 0.01 "
                        + "(labelled wrongly): counts [correct, negatives, positives] [A+1, A+1, A] on D, [A, A, A+1] "
                        + "on D'; replace-one", INTERCEPT);
        return new AuditTarget("constant-check", "label-flip-tie", PrivacyBudget.of(epsilon, 1e-5), pair,
                Losses.logistic(), Polytopes.l1Ball(RADIUS),
                (m, o) -> ConstantCheck.builder(NoisyFrankWolfe.builder().iterations(1).mutation(m).build())
                        .share(SHARE).margin(MARGIN).mutation(m).observer(o).build(),
                Statistics.positiveModelProjection(Canaries.axis(2, 1, 1)), FamilyAudits.RNM_MUTANTS,
                FamilyAudits.ADVANCED_REPLACE, null, "share 0.99 of eps on the check of a one-step noisy-frank-wolfe "
                        + "model (n = 2A + 1, A = " + a + "), margin " + MARGIN + " scales; the fixed test 'the released "
                        + "intercept is positive' (the positive constant classifier) on every run");
    }
}
