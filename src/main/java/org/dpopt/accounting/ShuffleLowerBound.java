package org.dpopt.accounting;

import org.apache.commons.math3.special.Erf;
import org.dpopt.linalg.Checks;
import org.dpopt.accounting.pld.PrivacyLossDistribution;

/**
 * Optimistic (lower) bounds on the privacy curve of ABLQ with shuffled batches, after Chua et al. 2024
 * (Chua, Ghazi, Kamath, Kumar, Manurangsi, Sinha, Zhang, "Scalable DP-SGD: Shuffling vs. Poisson
 * Subsampling", NeurIPS 2024, arXiv:2411.04205, Thms 3.5 and 3.8) and its single-epoch predecessor
 * (same authors, "How Private are DP-SGD Implementations?", ICML 2024, arXiv:2403.17673).
 *
 * <p>A specific pair of zero-out neighbours makes one epoch's S batch sums (after a public shift)
 * distributed as P = (1/S)Σ_t N(2e_t, σ²I) versus Q = (1/S)Σ_t N(e_t, σ²I). Any test on the
 * output lower-bounds δ; the test {max_t y_t &gt; C} has
 *
 * <pre>
 *   P(max ≤ C) = Φ((C−2)/σ)·Φ(C/σ)^{S−1},   Q(max ≤ C) = Φ((C−1)/σ)·Φ(C/σ)^{S−1},
 *   δ(ε) ≥ max_C [ (1 − P(max ≤ C)) − e^ε (1 − Q(max ≤ C)) ].
 * </pre>
 *
 * Persistent shuffling over E epochs equals one epoch at σ/√E (the E answers at the record's fixed
 * position average to noise σ/√E). Dynamic shuffling gives E independent epochs: the per-epoch max
 * statistic, discretized into slices, is composed E times (privacy-loss distribution rounded down,
 * tails dropped, so every approximation errs on the low side). These are <b>lower bounds</b>: they
 * are never privacy guarantees.
 */
public final class ShuffleLowerBound {
    private ShuffleLowerBound() {
    }

    /** Grid step of the threshold C (paper code: 0.01). */
    public static final double GRID_STEP = 0.01;
    /** Default privacy-loss discretization h for the dynamic bound (paper code: 1e-3). */
    public static final double DEFAULT_DISCRETIZATION = 1e-3;
    /** Default log of the neglected tail mass per epoch (paper code: −40). */
    public static final double DEFAULT_LOG_TRUNCATION_MASS = -40;

    /** log Φ(x), accurate in both tails. */
    static double logPhi(double x) {
        if (x < 0) {
            return GaussianMechanism.logNormalCdf(x);
        }
        return Math.log1p(-0.5 * Erf.erfc(x / Math.sqrt(2)));
    }

    /** log P(max ≤ C) for the mixture with spike {@code mu}. */
    private static double logCube(double c, double mu, double sigma, long s) {
        return logPhi((c - mu) / sigma) + (s - 1) * logPhi(c / sigma);
    }

    /**
     * Single-epoch lower bound max_C [(1−P(E_C)) − e^ε(1−Q(E_C))] over C ∈ {0, 0.01, …} up to
     * max(100, 2 + 15σ) (the paper's grid is 0:0.01:100), never below 0.
     */
    public static double singleEpochDelta(double epsilon, double sigma, long stepsPerEpoch) {
        check(epsilon, sigma, stepsPerEpoch);
        double top = Math.max(100, 2 + 15 * sigma);
        int m = (int) Math.round(top / GRID_STEP);
        double best = 0;
        double e = Math.exp(epsilon);
        for (int k = 0; k < m; k++) {
            double c = k * GRID_STEP;
            double p = -Math.expm1(logCube(c, 2, sigma, stepsPerEpoch));
            double q = -Math.expm1(logCube(c, 1, sigma, stepsPerEpoch));
            best = Math.max(best, p - e * q);
        }
        return best;
    }

    /** Persistent shuffling, E epochs (Thm 3.5): the single-epoch bound at σ/√E. */
    public static double persistentDelta(double epsilon, double sigma, long stepsPerEpoch, long epochs) {
        Checks.atLeastOne("epochs", epochs);
        Checks.positive("sigma", sigma);
        return singleEpochDelta(epsilon, sigma / Math.sqrt(epochs), stepsPerEpoch);
    }

    /** Dynamic shuffling, E epochs (Thm 3.8) with the paper's defaults h = 1e-3, log mass −40. */
    public static double dynamicDelta(double epsilon, double sigma, long stepsPerEpoch, long epochs) {
        return dynamicDelta(epsilon, sigma, stepsPerEpoch, epochs, DEFAULT_DISCRETIZATION, DEFAULT_LOG_TRUNCATION_MASS);
    }

    /**
     * Dynamic shuffling lower bound: H_{e^ε}(P̄^{⊗E} ‖ Q̄^{⊗E}) with P̄, Q̄ the laws of the sliced max
     * statistic. E = 1 uses the direct threshold search.
     */
    public static double dynamicDelta(double epsilon, double sigma, long stepsPerEpoch, long epochs,
            double discretization, double logTruncationMass) {
        check(epsilon, sigma, stepsPerEpoch);
        Checks.atLeastOne("epochs", epochs);
        Checks.positive("discretization", discretization);
        if (!(logTruncationMass < 0)) {
            throw Checks.fail("logTruncationMass", "negative", logTruncationMass);
        }
        if (epochs == 1) {
            return singleEpochDelta(epsilon, sigma, stepsPerEpoch);
        }
        if (epochs > 1000) {
            throw Checks.fail("epochs", "at most 1000 for the dynamic shuffle bound", epochs);
        }
        return slicedDelta(epsilon, sigma, stepsPerEpoch, (int) epochs, discretization, logTruncationMass);
    }

    /** The slice-PLD path for any E ≥ 1 (package-private: E = 1 checks it against the direct search). */
    static double slicedDelta(double epsilon, double sigma, long stepsPerEpoch, int e, double discretization,
            double logTruncationMass) {
        long epochs = e;
        double[] pmf = sliceLossPmf(sigma, stepsPerEpoch, epochs, discretization, logTruncationMass);
        int minIndex = (int) pmf[pmf.length - 1];
        int len = pmf.length - 1;
        double[] probs = java.util.Arrays.copyOf(pmf, len);
        // optimistic (lower-bound) semantics: no mass at +∞, truncated tails dropped or moved down
        PrivacyLossDistribution pld = PrivacyLossDistribution.fromPmf(discretization, minIndex, probs, 0, false);
        return pld.selfCompose(e).delta(epsilon);
    }

    /**
     * The per-epoch PMF of the floored privacy loss of the sliced max statistic under P, indexed by
     * loss/h − minIndex; the last entry holds minIndex.
     */
    static double[] sliceLossPmf(double sigma, long s, long epochs, double h, double logMass) {
        double tau = logMass - Math.log(2) - Math.log(epochs);
        double lowerCap = sigma * inverseNormalCdfFromLog(tau / s);
        double logTop = Math.log(-Math.expm1(Math.log1p(-Math.exp(tau)) / s));
        double upperCap = 2 - sigma * inverseNormalCdfFromLog(logTop);
        double gap = h * sigma * sigma;
        int slices = (int) Math.ceil((upperCap - lowerCap) / gap);
        if (slices > 50_000_000) {
            throw Checks.fail("sigma", "large enough that the slice grid stays below 5e7 slices", sigma);
        }
        int[] idx = new int[slices + 2];
        double[] mass = new double[slices + 2];
        int n = 0;
        // bottom tail {max ≤ lowerCap}
        double lpPrev = logCube(lowerCap, 2, sigma, s);
        double lqPrev = logCube(lowerCap, 1, sigma, s);
        idx[n] = (int) Math.floor((lpPrev - lqPrev) / h);
        mass[n++] = Math.exp(lpPrev);
        for (int j = 0; j < slices; j++) {
            double hi = Math.min(upperCap, lowerCap + (j + 1) * gap);
            double lp = logCube(hi, 2, sigma, s);
            double lq = logCube(hi, 1, sigma, s);
            // log(F(hi) − F(lo)) = log F(hi) + log(−expm1(log F(lo) − log F(hi)))
            double lpSlice = lp + Math.log(-Math.expm1(lpPrev - lp));
            double lqSlice = lq + Math.log(-Math.expm1(lqPrev - lq));
            if (Double.isFinite(lpSlice) && Double.isFinite(lqSlice)) {
                idx[n] = (int) Math.floor((lpSlice - lqSlice) / h);
                mass[n++] = Math.exp(lpSlice);
            }
            lpPrev = lp;
            lqPrev = lq;
        }
        // top tail {max > upperCap}
        double lpOut = Math.log(-Math.expm1(lpPrev));
        double lqOut = Math.log(-Math.expm1(lqPrev));
        if (Double.isFinite(lpOut) && Double.isFinite(lqOut)) {
            idx[n] = (int) Math.floor((lpOut - lqOut) / h);
            mass[n++] = Math.exp(lpOut);
        }
        int min = Integer.MAX_VALUE;
        int max = Integer.MIN_VALUE;
        for (int k = 0; k < n; k++) {
            min = Math.min(min, idx[k]);
            max = Math.max(max, idx[k]);
        }
        double[] pmf = new double[max - min + 2];
        for (int k = 0; k < n; k++) {
            pmf[idx[k] - min] += mass[k];
        }
        pmf[pmf.length - 1] = min;
        return pmf;
    }

    /** x with log Φ(x) = logP (bisection; accurate for tiny or near-1 probabilities). */
    static double inverseNormalCdfFromLog(double logP) {
        if (!(logP < 0)) {
            throw Checks.fail("logP", "negative", logP);
        }
        double lo = -40;
        double hi = 40;
        for (int it = 0; it < 200 && hi - lo > 1e-13; it++) {
            double mid = 0.5 * (lo + hi);
            if (logPhi(mid) < logP) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return 0.5 * (lo + hi);
    }

    private static void check(double epsilon, double sigma, long s) {
        if (!(epsilon >= 0) || Double.isInfinite(epsilon)) {
            throw Checks.fail("epsilon", "finite and non-negative", epsilon);
        }
        Checks.positive("sigma", sigma);
        Checks.atLeastOne("stepsPerEpoch", s);
    }
}
