package org.dpopt.accounting;

import java.util.LinkedHashMap;
import java.util.Map;
import org.dpopt.accounting.pld.Direction;
import org.dpopt.accounting.pld.PrivacyLossDistribution;
import org.dpopt.accounting.pld.PrivacyLossDistributions;
import org.dpopt.accounting.pld.Rounding;

/**
 * Privacy curves of T Poisson-sampled Gaussian releases (rate q, noise multiplier z, add/remove-one)
 * from the PLD engine, as in the code of Chua et al. (NeurIPS 2024, arXiv:2411.04205): both
 * directions (removal pair (1−q)N(0,z²)+qN(1,z²) vs N(0,z²), and the reversed addition pair), the
 * larger δ (or ε) of the two. Upper curves use connect-the-dots rounding, lower curves floor
 * rounding on a finer grid. Composed PLDs are memoized (a calibration revisits the same z), under a
 * lock; results are pure functions of (q, z, T, side).
 */
final class PoissonPldCurves {
    private final double upperH;
    private final double lowerH;
    private final Map<Key, PrivacyLossDistribution[]> cache = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, PrivacyLossDistribution[]> e) {
            return size() > 64;
        }
    };

    private record Key(double q, double z, long count, boolean upper) {
    }

    PoissonPldCurves(double upperH, double lowerH) {
        this.upperH = upperH;
        this.lowerH = lowerH;
    }

    private PrivacyLossDistribution[] plds(double q, double z, long count, boolean upper) {
        Key key = new Key(q, z, count, upper);
        synchronized (cache) {
            PrivacyLossDistribution[] hit = cache.get(key);
            if (hit != null) {
                return hit;
            }
        }
        Rounding r = upper ? Rounding.CONNECT_THE_DOTS : Rounding.FLOOR;
        double h = upper ? upperH : lowerH;
        PrivacyLossDistribution[] out = new PrivacyLossDistribution[2];
        int k = 0;
        for (Direction d : Direction.values()) {
            out[k++] = PrivacyLossDistributions.poissonGaussian(q, z, d, h, r).selfCompose(count);
        }
        synchronized (cache) {
            cache.put(key, out);
        }
        return out;
    }

    /** δ(ε): an upper bound if {@code upper}, else an optimistic lower bound. */
    double delta(double q, double z, long count, double epsilon, boolean upper) {
        double d = 0;
        for (PrivacyLossDistribution p : plds(q, z, count, upper)) {
            d = Math.max(d, p.delta(epsilon));
        }
        return d;
    }

    /** The upper-bound ε(δ) (the larger of the two directions). */
    double epsilon(double q, double z, long count, double delta) {
        double eps = 0;
        for (PrivacyLossDistribution p : plds(q, z, count, true)) {
            eps = Math.max(eps, p.epsilon(delta));
        }
        return eps;
    }
}
