package org.dpopt.accounting;

import java.util.ArrayList;
import java.util.List;
import org.dpopt.linalg.Checks;

/**
 * Composition of pure and approximate DP releases by advanced composition.
 *
 * <p><b>Dwork–Rothblum–Vadhan</b> (C. Dwork, G. N. Rothblum, S. Vadhan, "Boosting and Differential
 * Privacy", FOCS 2010), heterogeneous form: releases that are (ε_i, δ_i)-DP compose adaptively to
 * {@code (√(2 ln(1/δ′) Σε_i²) + Σ ε_i(e^{ε_i} − 1), Σδ_i + δ′)}-DP for every δ′ &gt; 0. For k equal
 * releases this is the familiar {@code ε0√(2k ln(1/δ′)) + kε0(e^{ε0} − 1)}. Given a total δ the
 * accountant spends δ′ = δ − Σδ_i.
 *
 * <p><b>Optimal composition</b> (P. Kairouz, S. Oh, P. Viswanath, "The Composition Theorem for
 * Differential Privacy", ICML 2015, arXiv:1311.0776): when every release has the same (ε0, δ0) the
 * exact worst case of k-fold adaptive composition is that of k-fold randomized response, whose
 * hockey-stick divergence is
 * {@code δ(ε) = 1 − (1 − δ0)^k (1 − Σ_l C(k,l) max(0, e^{(k−l)ε0} − e^{ε + lε0}) / (1 + e^{ε0})^k)}.
 * We derived this form ourselves from the randomized-response dominating pair (see
 * {@code theory-notes/frank-wolfe.md}); it is evaluated in log space, O(k) per call.
 *
 * <p>The reported ε is the minimum of basic composition (Σε_i), DRV and, for homogeneous events and
 * when enabled, the optimal bound — each a valid upper bound. Supported: {@link EpsilonDeltaEvent},
 * {@link LaplaceEvent} (pure ε = Δ/b), {@link ComposedEvent}, {@link SelfComposedEvent},
 * {@link NoOpEvent}, and {@link ParallelComposedEvent} at the top level (the worst part). Gaussian,
 * Poisson-sampled and nested parallel events throw {@link UnsupportedEventException}.
 */
public final class AdvancedCompositionAccountant extends CompositionAccountant {
    private final boolean optimal;

    /** The exact Kairouz–Oh–Viswanath sum is O(k); beyond this k only the closed-form bounds are used. */
    static final long OPTIMAL_MAX_K = 10_000_000L;

    /**
     * @param relation the relation the events' sensitivities refer to
     * @param optimal whether to also use the exact Kairouz–Oh–Viswanath bound for homogeneous events
     */
    public AdvancedCompositionAccountant(NeighboringRelation relation, boolean optimal) {
        super(relation);
        this.optimal = optimal;
    }

    /** With the optimal bound enabled. */
    public AdvancedCompositionAccountant(NeighboringRelation relation) {
        this(relation, true);
    }

    @Override
    public String name() {
        return optimal ? "advanced-composition(optimal)" : "advanced-composition(drv)";
    }

    /** Leaves (ε_i, δ_i, count). */
    private List<double[]> leaves(DpEvent e) {
        List<double[]> out = new ArrayList<>();
        Compositions.forEachLeaf(e, 1, (leaf, mult) -> {
            if (leaf instanceof EpsilonDeltaEvent ed) {
                out.add(new double[] {ed.epsilon(), ed.delta(), mult});
            } else if (leaf instanceof LaplaceEvent l) {
                out.add(new double[] {1 / l.noiseMultiplier(), 0, mult});
            } else {
                throw new UnsupportedEventException(leaf, name(), "advanced composition handles (eps, delta), "
                        + "Laplace, composition and top-level parallel composition only");
            }
        });
        return out;
    }

    @Override
    double sequentialEpsilon(DpEvent event, double delta) {
        List<double[]> ls = leaves(event);
        if (ls.isEmpty()) {
            return 0;
        }
        Sums sum = Sums.of(ls);
        if (sum.delta() > delta) {
            return Double.POSITIVE_INFINITY;
        }
        double best = sum.eps();
        double left = delta - sum.delta();
        if (left > 0) {
            best = Math.min(best, Math.sqrt(2 * Math.log(1 / left) * sum.eps2()) + sum.mean());
        }
        if (optimal && homogeneous(ls) && sum.k() <= OPTIMAL_MAX_K) {
            best = Math.min(best, optimalEpsilon(sum.k(), ls.get(0)[0], ls.get(0)[1], delta, best));
        }
        return best;
    }

    /** Over the leaves (ε_i, δ_i, k_i): Σk_iε_i, Σk_iε_i², Σk_iε_i(e^{ε_i} − 1), Σk_iδ_i and Σk_i. */
    private record Sums(double eps, double eps2, double mean, double delta, long k) {
        static Sums of(List<double[]> ls) {
            double sumEps = 0;
            double sumEps2 = 0;
            double sumMean = 0;
            double sumDelta = 0;
            long k = 0;
            for (double[] l : ls) {
                sumEps += l[2] * l[0];
                sumEps2 += l[2] * l[0] * l[0];
                sumMean += l[2] * l[0] * Math.expm1(l[0]);
                sumDelta += l[2] * l[1];
                k += (long) l[2];
            }
            return new Sums(sumEps, sumEps2, sumMean, sumDelta, k);
        }
    }

    private static boolean homogeneous(List<double[]> ls) {
        for (double[] l : ls) {
            if (l[0] != ls.get(0)[0] || l[1] != ls.get(0)[1]) {
                return false;
            }
        }
        return true;
    }

    @Override
    double sequentialDelta(DpEvent event, double epsilon) {
        List<double[]> ls = leaves(event);
        Sums sum = Sums.of(ls);
        double best = epsilon >= sum.eps() ? sum.delta() : 1;
        if (epsilon > sum.mean() && sum.eps2() > 0) {
            // ε = √(2 ln(1/δ′) Σε²) + mean  ⇔  δ′ = exp(−(ε − mean)² / (2 Σε²))
            double t = epsilon - sum.mean();
            best = Math.min(best, sum.delta() + Math.exp(-t * t / (2 * sum.eps2())));
        }
        if (optimal && !ls.isEmpty() && homogeneous(ls) && sum.k() <= OPTIMAL_MAX_K) {
            best = Math.min(best, optimalDelta(sum.k(), ls.get(0)[0], ls.get(0)[1], epsilon));
        }
        return Math.min(1, best);
    }

    /**
     * The DRV bound for k releases each ε0-DP: {@code ε0√(2k ln(1/δ′)) + kε0(e^{ε0} − 1)}.
     */
    public static double drvEpsilon(long k, double eps0, double deltaPrime) {
        Checks.atLeastOne("k", k);
        Checks.positive("eps0", eps0);
        Checks.openUnit("deltaPrime", deltaPrime);
        return eps0 * Math.sqrt(2 * k * Math.log(1 / deltaPrime)) + k * eps0 * Math.expm1(eps0);
    }

    /**
     * The exact δ(ε) of k-fold adaptive composition of (ε0, δ0)-DP releases (Kairouz–Oh–Viswanath).
     */
    public static double optimalDelta(long k, double eps0, double delta0, double epsilon) {
        Checks.atLeastOne("k", k);
        if (k > OPTIMAL_MAX_K) {
            throw Checks.fail("k", "at most " + OPTIMAL_MAX_K + " for the exact O(k) sum", k);
        }
        Checks.positive("eps0", eps0);
        if (!(delta0 >= 0 && delta0 < 1)) {
            throw Checks.fail("delta0", "in [0, 1)", delta0);
        }
        if (!(epsilon >= 0)) {
            throw Checks.fail("epsilon", "non-negative", epsilon);
        }
        // term_l = C(k,l) (e^{(k−l)ε0} − e^{ε + lε0}) / (1+e^{ε0})^k, positive while (k−2l)ε0 > ε
        double logNorm = k * log1pExp(eps0);
        double sum = 0;
        double logBinom = 0; // ln C(k, 0)
        for (long l = 0; l <= k; l++) {
            if ((k - 2 * l) * eps0 <= epsilon) {
                break;
            }
            double a = logBinom + (k - l) * eps0 - logNorm;
            // e^{a} (1 − e^{ε − (k−2l)ε0})
            sum += Math.exp(a) * -Math.expm1(epsilon - (k - 2 * l) * eps0);
            logBinom += Math.log((double) (k - l) / (l + 1));
        }
        double pure = Math.min(1, Math.max(0, sum));
        // 1 − (1−δ0)^k (1 − pure)
        double keep = Math.exp(k * Math.log1p(-delta0));
        return Math.min(1, 1 - keep * (1 - pure));
    }

    private static double log1pExp(double x) {
        return x > 30 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x));
    }

    /** The smallest ε with optimalDelta(ε) ≤ δ, by bisection on [0, hi] (returns a value with δ(ε) ≤ δ). */
    private static double optimalEpsilon(long k, double eps0, double delta0, double delta, double hi) {
        if (optimalDelta(k, eps0, delta0, 0) <= delta) {
            return 0;
        }
        double top = Math.min(hi, k * eps0);
        if (!(optimalDelta(k, eps0, delta0, top) <= delta)) {
            return Double.POSITIVE_INFINITY;
        }
        double lo = 0;
        for (int it = 0; it < 100 && top - lo > 1e-12 * Math.max(1, top); it++) {
            double mid = 0.5 * (lo + top);
            if (optimalDelta(k, eps0, delta0, mid) <= delta) {
                top = mid;
            } else {
                lo = mid;
            }
        }
        return top;
    }
}
