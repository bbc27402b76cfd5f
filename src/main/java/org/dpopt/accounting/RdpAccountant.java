package org.dpopt.accounting;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.dpopt.linalg.Checks;

/**
 * Rényi-DP accountant (Mironov, "Rényi Differential Privacy", CSF 2017, arXiv:1702.07476).
 *
 * <p>Supports: Gaussian (ε(α) = α/(2z²)); Poisson-subsampled Gaussian under add/remove-one
 * (Mironov, Talwar, Zhang 2019, arXiv:1908.10530) at integer orders by the exact binomial sum and
 * at fractional orders by exact numerical integration of
 * {@code E_{Z~N(0,z²)}[(1 − q + q·e^{(2Z−1)/(2z²)})^α]}; Laplace (Mironov 2017, Prop. 6); pure
 * ε-DP events (ε(α) ≤ min(ε, αε²/2), Bun–Steinke 2016); composition (RDP adds per order);
 * parallel composition over disjoint parts (the largest part's RDP at each order).
 * Approximate-DP events with δ &gt; 0 and Poisson sampling under replace-one are unsupported (see
 * {@link #unsupportedReason}).
 *
 * <p>Conversion to (ε, δ): the improved bound of Balle et al. 2020 (arXiv:1905.09982) /
 * Canonne–Kamath–Steinke 2020 (arXiv:2004.00010), {@code ε = r(α) + log(1 − 1/α) − (log δ + log α)/(α − 1)}, minimized
 * over the order grid; or the classic {@code r(α) + log(1/δ)/(α − 1)} (Abadi et al.'s moments
 * accountant). Reports note when the optimal order sits at an edge of the grid.
 */
public final class RdpAccountant implements PrivacyAccountant {

    /** RDP → (ε, δ) conversion. */
    public enum Conversion {
        /** Balle et al. 2020 / Canonne–Kamath–Steinke (tighter; default). */
        IMPROVED,
        /** ε = r(α) + log(1/δ)/(α − 1) (Mironov 2017; Abadi et al.'s moments accountant). */
        CLASSIC
    }

    /**
     * dp_accounting's default order grid: 1.1, 1.2, …, 10.9, 11, …, 63, 128, 256, 512, 1024
     * (unmodifiable; {@link #defaultOrders()} gives it as a fresh array).
     */
    public static final List<Double> DEFAULT_ORDERS = RdpOrders.DEFAULT;

    private static final double[] DEFAULT_ORDER_ARRAY = RdpOrders.defaults();

    private final double[] orders;
    private final Conversion conversion;
    private final NeighboringRelation relation;
    private final RdpCurves curves;

    /** Add/remove-one, default orders, improved conversion. */
    public RdpAccountant() {
        this(DEFAULT_ORDER_ARRAY, Conversion.IMPROVED, NeighboringRelation.ADD_OR_REMOVE_ONE);
    }

    /**
     * @param orders RDP orders α &gt; 1 (copied and sorted), e.g. {@link #DEFAULT_ORDERS}
     * @param conversion RDP → DP conversion
     * @param relation neighbouring relation
     */
    public RdpAccountant(List<Double> orders, Conversion conversion, NeighboringRelation relation) {
        this(RdpOrders.unboxed(Checks.notNull("orders", orders)), conversion, relation);
    }

    /**
     * @param orders RDP orders α &gt; 1 (copied and sorted)
     * @param conversion RDP → DP conversion
     * @param relation neighbouring relation
     */
    public RdpAccountant(double[] orders, Conversion conversion, NeighboringRelation relation) {
        Checks.notNull("orders", orders);
        if (orders.length == 0) {
            throw Checks.fail("orders", "non-empty", "[]");
        }
        this.orders = orders.clone();
        Arrays.sort(this.orders);
        for (double a : this.orders) {
            if (!(a > 1) || Double.isInfinite(a)) {
                throw Checks.fail("RDP order", "finite and greater than 1", a);
            }
        }
        this.conversion = Checks.notNull("conversion", conversion);
        this.relation = Checks.notNull("relation", relation);
        this.curves = new RdpCurves(this.orders, relation, name());
    }

    /**
     * The integer orders of the default grid (2, 3, …, 63, 128, 256, 512, 1024) as a fresh array: the
     * subsampled-Gaussian RDP is then an exact finite sum at every order (no quadrature), which makes
     * an accountant on these orders a cheap valid upper bound (used as a standing guard and to bracket
     * calibration); the fractional orders only tighten it.
     */
    public static double[] integerOrders() {
        return java.util.Arrays.stream(DEFAULT_ORDER_ARRAY).filter(a -> a == Math.rint(a)).toArray();
    }

    /** The default order grid ({@link #DEFAULT_ORDERS}) as a fresh array. */
    public static double[] defaultOrders() {
        return DEFAULT_ORDER_ARRAY.clone();
    }

    @Override
    public String name() {
        return "rdp";
    }

    @Override
    public NeighboringRelation relation() {
        return relation;
    }

    /** The order grid (copy). */
    public double[] orders() {
        return orders.clone();
    }

    @Override
    public Optional<String> unsupportedReason(DpEvent event) {
        try {
            rdp(event);
            return Optional.empty();
        } catch (UnsupportedEventException e) {
            return Optional.of(e.getMessage());
        }
    }

    /** The RDP curve ε(α) of the event on this accountant's order grid. */
    public double[] rdp(DpEvent event) {
        return curves.of(event);
    }

    /**
     * RDP ε(α) of one step of the Poisson-subsampled Gaussian (rate q, noise multiplier z, unit
     * sensitivity, remove direction, which dominates the add direction; MTZ19).
     */
    public static double sampledGaussianRdp(double q, double z, double alpha) {
        Checks.probability("q", q);
        Checks.positive("noiseMultiplier", z);
        return SampledGaussianRdp.of(q, z, alpha);
    }

    /** The (ε, optimal order) pair at δ. */
    public record EpsilonAtOrder(double epsilon, double order, boolean atGridEdge) {
    }

    /** ε(δ) with the optimal order. */
    public EpsilonAtOrder epsilonWithOrder(DpEvent event, double delta) {
        Checks.delta("delta", delta);
        double[] r = rdp(event);
        if (allZero(r)) {
            // zero Rényi divergence at any order α > 1 means the output distributions coincide
            return new EpsilonAtOrder(0, orders[0], false);
        }
        double best = Double.POSITIVE_INFINITY;
        int bestK = -1;
        for (int k = 0; k < orders.length; k++) {
            double a = orders[k];
            double eps;
            if (conversion == Conversion.IMPROVED) {
                eps = r[k] + Math.log1p(-1 / a) - (Math.log(delta) + Math.log(a)) / (a - 1);
            } else {
                eps = r[k] - Math.log(delta) / (a - 1);
            }
            if (eps < best) {
                best = eps;
                bestK = k;
            }
        }
        if (bestK < 0) {
            // no order gives a finite bound (e.g. a non-private part, or a noise multiplier so small that
            // the RDP overflows): ε = ∞ is the (valid) answer; the order reported is the first one
            return new EpsilonAtOrder(Double.POSITIVE_INFINITY, orders[0], false);
        }
        boolean edge = bestK == 0 || bestK == orders.length - 1;
        return new EpsilonAtOrder(Math.max(0, best), orders[bestK], edge);
    }

    @Override
    public double epsilon(DpEvent event, double delta) {
        return epsilonWithOrder(event, delta).epsilon();
    }

    @Override
    public double delta(DpEvent event, double epsilon) {
        if (!(epsilon >= 0)) {
            throw Checks.fail("epsilon", "non-negative", epsilon);
        }
        double[] r = rdp(event);
        if (allZero(r)) {
            return 0;
        }
        double best = 1.0;
        for (int k = 0; k < orders.length; k++) {
            double a = orders[k];
            double logDelta;
            if (conversion == Conversion.IMPROVED) {
                logDelta = (a - 1) * (r[k] - epsilon + Math.log1p(-1 / a)) - Math.log(a);
            } else {
                logDelta = (a - 1) * (r[k] - epsilon);
            }
            if (!Double.isNaN(logDelta)) {
                best = Math.min(best, Math.exp(logDelta));
            }
        }
        if (epsilon == Double.POSITIVE_INFINITY && !anyInfinite(r)) {
            return 0; // finite Rényi divergence: the likelihood ratio is finite almost surely
        }
        return best;
    }

    private static boolean anyInfinite(double[] r) {
        for (double v : r) {
            if (!(v < Double.POSITIVE_INFINITY)) {
                return true;
            }
        }
        return false;
    }

    private static boolean allZero(double[] r) {
        for (double v : r) {
            if (v != 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public PrivacyReport report(DpEvent event, double delta) {
        EpsilonAtOrder e = epsilonWithOrder(event, delta);
        List<String> notes = new ArrayList<>();
        if (Double.isInfinite(e.epsilon())) {
            notes.add("no finite RDP bound at any order");
        } else {
            notes.add("optimal RDP order " + e.order());
        }
        if (e.atGridEdge()) {
            notes.add("WARNING: optimal RDP order " + e.order()
                    + " is at the edge of the order grid; epsilon may be loose - extend the grid");
        }
        return new PrivacyReport(e.epsilon(), Double.NaN, delta, name(), relation, event, Bound.UPPER, notes);
    }
}
