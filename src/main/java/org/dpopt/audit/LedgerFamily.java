package org.dpopt.audit;

import java.util.ArrayList;
import java.util.List;
import org.dpopt.accounting.AblqStepEvent;
import org.dpopt.accounting.ComposedEvent;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.EpsilonDeltaEvent;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.LaplaceEvent;
import org.dpopt.accounting.NoOpEvent;
import org.dpopt.accounting.NonPrivateEvent;
import org.dpopt.accounting.ParallelComposedEvent;
import org.dpopt.accounting.PoissonSampledEvent;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.accounting.SelfComposedEvent;
import org.dpopt.accounting.TruncatedPoissonEvent;
import org.dpopt.linalg.Checks;

/**
 * The ledger test: are the observed error rates compatible with the mechanism the run's ledger
 * records, at the recorded noise?
 *
 * <p>A run's ledger L is a full description of its releases (e.g. T × PoissonSampled(q, Gaussian(z))).
 * An accountant turns it into a privacy profile δ_L(ε) for every ε, hence into a lower envelope of the
 * achievable error pairs: every test between neighbours has
 * <pre>
 *   b ≥ 1 − δ_L(ε) − e^ε a   and   a ≥ 1 − δ_L(ε) − e^ε b     for all ε ≥ 0.
 * </pre>
 * The claimed (ε, δ) is one of these constraints; the ledger states all of them. Scaling every noise
 * scale of L by s (z → s·z for Gaussian releases, b → s·b for Laplace, ε₀ → ε₀/s for (ε₀, δ₀) events)
 * gives a family L(s) ordered by s (more noise is post-processing of less). For Clopper–Pearson upper
 * bounds (a_U, b_U) ({@link EpsilonLowerBound}), let s* be the largest s for which (a_U, b_U) satisfies
 * every constraint of L(s): under the hypothesis "the implementation is at least as private as its
 * ledger" the true rates satisfy the constraints of L(1), hence so do (a_U, b_U) (the constraints are
 * monotone), so s* ≥ 1 with probability ≥ 1 − α. The ledger bound is ε_ledger = ε_{L(s*)}(δ), which
 * exceeds the claimed ε_{L(1)}(δ) only if s* &lt; 1. For a ledger of Gaussian releases without sampling
 * L(s) is μ/s-GDP and the test is the Gaussian-DP audit of Nasr et al. 2023; for sampled or pure-DP
 * ledgers it uses the ledger's own shape, which a Gaussian fit would misjudge.
 *
 * <p>This is a test of the ledger, not an assumption-free bound on the true ε: a broken
 * implementation may be outside the family (then ε_ledger is the ε the family would need, not the
 * implementation's). Checking the constraints at finitely many ε (a grid) only drops constraints,
 * which makes s* larger and the test conservative; the accountant's δ is an upper bound, which does the
 * same.
 */
public final class LedgerFamily {
    /** Scales examined: s ∈ [1/{@value #SCALE_RANGE}, {@value #SCALE_RANGE}]. */
    public static final double SCALE_RANGE = 64;
    /** Relative precision of s*. */
    public static final double SCALE_PRECISION = 0.005;
    /** Spacing of the ε values at which the constraints are checked (0, h, 2h, … up to ln(1/min(a, b))). */
    public static final double EPSILON_STEP = 0.05;

    private final DpEvent ledger;
    private final PrivacyAccountant curve;
    private final PrivacyAccountant claim;
    private final double delta;

    /**
     * @param ledger the recorded ledger L
     * @param curve the accountant giving δ_{L(s)}(ε) for the constraints (any valid upper bound; a fast
     *              one such as RDP for sampled ledgers)
     * @param claim the accountant that stated the claim, used for ε_{L(s)}(δ)
     * @param delta the δ of the claim
     */
    public LedgerFamily(DpEvent ledger, PrivacyAccountant curve, PrivacyAccountant claim, double delta) {
        this.ledger = Checks.notNull("ledger", ledger);
        this.curve = MemoizingAccountant.of(Checks.notNull("curve accountant", curve));
        this.claim = MemoizingAccountant.of(Checks.notNull("claim accountant", claim));
        this.delta = Checks.delta("delta", delta);
    }

    /**
     * The outcome of the test.
     *
     * @param fprUpper a_U
     * @param fnrUpper b_U
     * @param scaleUpper the smallest examined s at which (a_U, b_U) violates L(s) (s* lies below it);
     *                   {@value #SCALE_RANGE} if none does
     * @param epsilon ε_{L(scaleUpper)}(δ), a lower bound on ε_{L(s*)}(δ)
     * @param consistent true if (a_U, b_U) satisfies the constraints of the recorded ledger L(1)
     */
    public record Result(double fprUpper, double fnrUpper, double scaleUpper, double epsilon, boolean consistent) {
    }

    /** The ledger with every noise scale multiplied by s. */
    public static DpEvent scaled(DpEvent e, double s) {
        Checks.notNull("event", e);
        Checks.positive("scale", s);
        if (e instanceof GaussianEvent g) {
            return new GaussianEvent(g.noiseMultiplier() * s);
        }
        if (e instanceof LaplaceEvent l) {
            return new LaplaceEvent(l.noiseMultiplier() * s);
        }
        if (e instanceof EpsilonDeltaEvent p) {
            return new EpsilonDeltaEvent(p.epsilon() / s, p.delta());
        }
        if (e instanceof PoissonSampledEvent p) {
            // sampling with probability 1 is no sampling: lets accountants use the exact Gaussian curve
            return p.samplingProbability() >= 1 ? scaled(p.event(), s)
                    : new PoissonSampledEvent(p.samplingProbability(), scaled(p.event(), s));
        }
        if (e instanceof TruncatedPoissonEvent t) {
            return new TruncatedPoissonEvent(t.samplingProbability(), t.datasetSize(), t.maxBatchSize(),
                    scaled(t.event(), s));
        }
        if (e instanceof AblqStepEvent a) {
            return new AblqStepEvent(a.order(), a.noiseMultiplier() * s, a.stepsPerEpoch());
        }
        if (e instanceof SelfComposedEvent c) {
            return new SelfComposedEvent(scaled(c.event(), s), c.count());
        }
        if (e instanceof ComposedEvent c) {
            List<DpEvent> parts = new ArrayList<>();
            c.events().forEach(x -> parts.add(scaled(x, s)));
            return new ComposedEvent(parts);
        }
        if (e instanceof ParallelComposedEvent p) {
            List<DpEvent> parts = new ArrayList<>();
            p.events().forEach(x -> parts.add(scaled(x, s)));
            return new ParallelComposedEvent(parts);
        }
        if (e instanceof NoOpEvent || e instanceof NonPrivateEvent) {
            return e;
        }
        throw Checks.fail("ledger event", "of a known type", e.describe());
    }

    /**
     * The largest violation of the constraints of L(s) by (a, b): max over the ε grid
     * {0, h, 2h, …} ∩ [0, ln(1/min(a, b))] (larger ε cannot be violated) of
     * max(1 − δ(ε) − e^ε a − b, 1 − δ(ε) − e^ε b − a); positive means incompatible.
     */
    public double violation(double a, double b, double s) {
        DpEvent e = scaled(ledger, s);
        double m = Math.min(a, b);
        if (!(m > 0)) {
            return Double.POSITIVE_INFINITY;
        }
        double epsMax = Math.log(1 / m);
        double worst = Double.NEGATIVE_INFINITY;
        for (int k = 0; k * EPSILON_STEP <= epsMax; k++) {
            double eps = k * EPSILON_STEP;
            double d = curve.delta(e, eps);
            double ex = Math.exp(eps);
            worst = Math.max(worst, Math.max(1 - d - ex * a - b, 1 - d - ex * b - a));
        }
        return worst;
    }

    /**
     * The ledger's trade-off curve at scale s: the smallest false-negative rate the constraints allow at
     * false-positive rate a, max(0, max over the ε grid of max(1 − δ(ε) − e^ε a, e^{−ε}(1 − δ(ε) − a))).
     */
    public double tradeOff(double a, double s) {
        // ε ∈ [0, 20] on the grid: the first form binds at small a, the second (the exchanged
        // inequality) at large a, where the curve's slope is shallower than −1
        Checks.inRange("false-positive rate", a, 0, 1);
        DpEvent e = scaled(ledger, s);
        double best = 0;
        for (int k = 0; k * EPSILON_STEP <= 20; k++) {
            double eps = k * EPSILON_STEP;
            double d = curve.delta(e, eps);
            best = Math.max(best, Math.max(1 - d - Math.exp(eps) * a, Math.exp(-eps) * (1 - d - a)));
        }
        return best;
    }

    /** Runs the test at the upper bounds (a_U, b_U). */
    public Result test(double fprUpper, double fnrUpper) {
        boolean atClaim = violation(fprUpper, fnrUpper, 1) <= 0;
        double lo;
        double hi;
        if (atClaim) {
            lo = 1;
            hi = 1;
            while (hi < SCALE_RANGE && violation(fprUpper, fnrUpper, hi * 2) <= 0) {
                hi *= 2;
            }
            lo = hi;
            hi = Math.min(SCALE_RANGE, hi * 2);
            if (violation(fprUpper, fnrUpper, hi) <= 0) {
                return new Result(fprUpper, fnrUpper, SCALE_RANGE, claim.epsilon(scaled(ledger, SCALE_RANGE), delta),
                        true);
            }
        } else {
            hi = 1;
            lo = 0.5;
            while (lo > 1 / SCALE_RANGE && violation(fprUpper, fnrUpper, lo) > 0) {
                hi = lo;
                lo /= 2;
            }
            if (violation(fprUpper, fnrUpper, lo) > 0) {
                return new Result(fprUpper, fnrUpper, lo, claim.epsilon(scaled(ledger, lo), delta), false);
            }
        }
        // invariant: compatible at lo, incompatible at hi
        while (hi / lo > 1 + SCALE_PRECISION) {
            double mid = Math.sqrt(lo * hi);
            if (violation(fprUpper, fnrUpper, mid) <= 0) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return new Result(fprUpper, fnrUpper, hi, claim.epsilon(scaled(ledger, hi), delta), atClaim);
    }

    /** The claimed ε_{L(1)}(δ). */
    public double claimedEpsilon() {
        return claim.epsilon(ledger, delta);
    }
}
