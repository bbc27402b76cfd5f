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
    public static final List<Double> DEFAULT_ORDERS = List.copyOf(boxed(buildDefaultOrders()));

    private static final double[] DEFAULT_ORDER_ARRAY = buildDefaultOrders();

    private final double[] orders;
    private final Conversion conversion;
    private final NeighboringRelation relation;

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
        this(unboxed(Checks.notNull("orders", orders)), conversion, relation);
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

    private static List<Double> boxed(double[] a) {
        List<Double> out = new ArrayList<>(a.length);
        for (double v : a) {
            out.add(v);
        }
        return out;
    }

    private static double[] unboxed(List<Double> l) {
        double[] out = new double[l.size()];
        for (int i = 0; i < out.length; i++) {
            Double v = l.get(i);
            if (v == null) {
                throw Checks.fail("RDP order", "non-null", "null");
            }
            out[i] = v;
        }
        return out;
    }

    private static double[] buildDefaultOrders() {
        List<Double> o = new ArrayList<>();
        for (int x = 1; x < 100; x++) {
            o.add(1 + x / 10.0);
        }
        for (int a = 11; a < 64; a++) {
            o.add((double) a);
        }
        o.add(128.0);
        o.add(256.0);
        o.add(512.0);
        o.add(1024.0);
        return o.stream().mapToDouble(Double::doubleValue).toArray();
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
        double[] r = new double[orders.length];
        accumulate(event, 1.0, r);
        return r;
    }

    private void accumulate(DpEvent e, double mult, double[] r) {
        if (e instanceof NoOpEvent) {
            return;
        }
        if (e instanceof NonPrivateEvent) {
            Arrays.fill(r, Double.POSITIVE_INFINITY);
            return;
        }
        if (e instanceof ComposedEvent c) {
            for (DpEvent s : c.events()) {
                accumulate(s, mult, r);
            }
            return;
        }
        if (e instanceof SelfComposedEvent s) {
            accumulate(s.event(), mult * s.count(), r);
            return;
        }
        if (e instanceof ParallelComposedEvent par) {
            // disjoint parts: a neighbouring pair differs in one part only, so the RDP at each order is
            // at most the largest part's
            double[] worst = new double[r.length];
            for (DpEvent s : new java.util.LinkedHashSet<>(par.events())) { // equal parts: equal curves
                double[] part = new double[r.length];
                accumulate(s, 1.0, part);
                for (int k = 0; k < r.length; k++) {
                    worst[k] = Math.max(worst[k], part[k]);
                }
            }
            for (int k = 0; k < r.length; k++) {
                r[k] += mult * worst[k];
            }
            return;
        }
        if (e instanceof GaussianEvent g) {
            double z = g.noiseMultiplier();
            for (int k = 0; k < orders.length; k++) {
                r[k] += mult * orders[k] / (2 * z * z);
            }
            return;
        }
        if (e instanceof LaplaceEvent l) {
            for (int k = 0; k < orders.length; k++) {
                r[k] += mult * laplaceRdp(orders[k], l.noiseMultiplier());
            }
            return;
        }
        if (e instanceof EpsilonDeltaEvent ed) {
            if (ed.delta() > 0) {
                throw new UnsupportedEventException(e, name(),
                        "an (epsilon, delta)-DP guarantee with delta > 0 has no finite RDP bound");
            }
            double eps = ed.epsilon();
            for (int k = 0; k < orders.length; k++) {
                r[k] += mult * Math.min(eps, orders[k] * eps * eps / 2);
            }
            return;
        }
        if (e instanceof PoissonSampledEvent p) {
            if (relation != NeighboringRelation.ADD_OR_REMOVE_ONE) {
                throw new UnsupportedEventException(e, name(), "Poisson subsampling is only accounted "
                        + "under ADD_OR_REMOVE_ONE (for replace-one account under add/remove and apply group privacy)");
            }
            if (!(p.event() instanceof GaussianEvent g)) {
                throw new UnsupportedEventException(p.event(), name(),
                        "only a Gaussian event may be Poisson-sampled for RDP accounting");
            }
            double[] curve = sampledGaussianRdpCurve(p.samplingProbability(), g.noiseMultiplier(), orders);
            for (int k = 0; k < orders.length; k++) {
                r[k] += mult * curve[k];
            }
            return;
        }
        throw new UnsupportedEventException(e, name(), "no RDP bound is implemented for this event type");
    }

    /** RDP of Laplace with scale b (relative to ℓ1 sensitivity 1) at order α (Mironov 2017). */
    static double laplaceRdp(double alpha, double b) {
        double l1 = Math.log(alpha / (2 * alpha - 1)) + (alpha - 1) / b;
        double l2 = Math.log((alpha - 1) / (2 * alpha - 1)) - alpha / b;
        return logAdd(l1, l2) / (alpha - 1);
    }

    /**
     * RDP ε(α) of one step of the Poisson-subsampled Gaussian (rate q, noise multiplier z, unit
     * sensitivity, remove direction, which dominates the add direction; MTZ19).
     */
    public static double sampledGaussianRdp(double q, double z, double alpha) {
        Checks.probability("q", q);
        Checks.positive("noiseMultiplier", z);
        if (q == 1.0) {
            return alpha / (2 * z * z);
        }
        if (alpha == Math.rint(alpha) || !Quadrature.feasible(z, alpha)) {
            return integerOrderBound(q, z, alpha);
        }
        return Math.max(0, logAFractional(q, z, alpha) / (alpha - 1));
    }

    /**
     * The exact RDP at an integer order, or at a fractional order α the exact RDP at ⌈α⌉ — an upper
     * bound, since the Rényi divergence is non-decreasing in its order (van Erven and Harremoës,
     * "Rényi divergence and Kullback–Leibler divergence", IEEE Trans. Inf. Theory 2014, Thm. 3). Used
     * where the quadrature grid for a fractional order would be too fine (tiny noise multipliers).
     */
    static double integerOrderBound(double q, double z, double alpha) {
        long a = (long) Math.ceil(alpha);
        double logA = logAInteger(q, z, a);
        return logA == Double.POSITIVE_INFINITY ? Double.POSITIVE_INFINITY : Math.max(0, logA / (a - 1));
    }

    /**
     * The per-step RDP curve of the Poisson-subsampled Gaussian on a whole order grid: integer orders by
     * the exact binomial sum, fractional orders by one shared quadrature grid (see
     * {@link #logAFractional}). Equal to {@link #sampledGaussianRdp} at every order, only faster.
     */
    static double[] sampledGaussianRdpCurve(double q, double z, double[] alphas) {
        double[] out = new double[alphas.length];
        if (q == 1.0) {
            for (int k = 0; k < alphas.length; k++) {
                out[k] = alphas[k] / (2 * z * z);
            }
            return out;
        }
        double maxFrac = 0;
        for (double a : alphas) {
            if (a != Math.rint(a)) {
                maxFrac = Math.max(maxFrac, a);
            }
        }
        Quadrature quad = maxFrac > 0 && Quadrature.feasible(z, maxFrac) ? new Quadrature(q, z, maxFrac) : null;
        for (int k = 0; k < alphas.length; k++) {
            double a = alphas[k];
            out[k] = a == Math.rint(a) || quad == null ? integerOrderBound(q, z, a) : Math.max(0, quad.logA(a) / (a - 1));
        }
        return out;
    }

    /** log Σ_k C(α,k)(1−q)^{α−k} q^k exp((k²−k)/(2z²)) (log-binomials updated incrementally). */
    static double logAInteger(double q, double z, long alpha) {
        double logQ = Math.log(q);
        double log1mQ = Math.log1p(-q);
        double[] t = new double[(int) alpha + 1];
        double logBinom = 0;
        double max = Double.NEGATIVE_INFINITY;
        for (long k = 0; k <= alpha; k++) {
            if (k > 0) {
                logBinom += logInt(alpha - k + 1) - logInt(k);
            }
            t[(int) k] = logBinom + k * logQ + (alpha - k) * log1mQ + (k * (double) k - k) / (2 * z * z);
            max = Math.max(max, t[(int) k]);
        }
        if (max == Double.POSITIVE_INFINITY || Double.isNaN(max)) {
            return Double.POSITIVE_INFINITY; // exp((k² − k)/(2z²)) overflows even the log scale: no finite bound
        }
        double sum = 0;
        for (double v : t) {
            sum += Math.exp(v - max);
        }
        return max + Math.log(sum);
    }

    private static final double[] LOG_INT = new double[2049];

    static {
        for (int i = 1; i < LOG_INT.length; i++) {
            LOG_INT[i] = Math.log(i);
        }
    }

    private static double logInt(long k) {
        return k < LOG_INT.length ? LOG_INT[(int) k] : Math.log(k);
    }

    /**
     * log E_{Z∼N(0,z²)}[(1 − q + q·e^{(2Z−1)/(2z²)})^α] by the trapezoidal rule in log space on
     * [−16z, α + 16z] with spacing h = min(0.4z², 0.5z). The integrand is a superposition of Gaussian
     * bumps of width z and is analytic in the strip |Im x| &lt; πz² (where 1 − q + q e^{(2x−1)/(2z²)} may
     * vanish), on which |φ| grows by at most e^{d²/(2z²)} at height d. The trapezoidal error is then
     * about e^{d²/(2z²) − 2πd/h} for any admissible d, which with this h is below e^{−38} relative for
     * every z (d = πz² for z ≤ 3.3, d ≈ 2πz²/h beyond). Terms more than e^{−50} below the peak are
     * skipped. Checked against the exact binomial sum at integer orders in tests, to 1e-9.
     */
    static double logAFractional(double q, double z, double alpha) {
        return new Quadrature(q, z, alpha).logA(alpha);
    }

    /** The α-independent part of the quadrature, shared by all orders up to a maximum. */
    private static final class Quadrature {
        private final double[] base;
        private final double[] inner;
        private final double logH;

        /** Most quadrature nodes used; beyond, fractional orders are bounded by the next integer order. */
        static final int MAX_NODES = 2_000_000;

        static boolean feasible(double z, double maxAlpha) {
            double h = Math.min(0.4 * z * z, 0.5 * z);
            double nodes = (maxAlpha + 32 * z) / h;
            return nodes < MAX_NODES;
        }

        Quadrature(double q, double z, double maxAlpha) {
            double h = Math.min(0.4 * z * z, 0.5 * z);
            double lo = -16 * z;
            double hi = maxAlpha + 16 * z;
            int m = (int) Math.ceil((hi - lo) / h);
            double logQ = Math.log(q);
            double log1mQ = Math.log1p(-q);
            double twoZ2 = 2 * z * z;
            double logNorm = -Math.log(z) - 0.5 * Math.log(2 * Math.PI);
            base = new double[m + 1];
            inner = new double[m + 1];
            for (int k = 0; k <= m; k++) {
                double x = lo + k * h;
                inner[k] = logAdd(log1mQ, logQ + (2 * x - 1) / twoZ2);
                base[k] = logNorm - x * x / twoZ2 + (k == 0 || k == m ? Math.log(0.5) : 0);
            }
            logH = Math.log(h);
        }

        double logA(double alpha) {
            double max = Double.NEGATIVE_INFINITY;
            for (int k = 0; k < base.length; k++) {
                max = Math.max(max, base[k] + alpha * inner[k]);
            }
            double sum = 0;
            double cut = max - 50;
            for (int k = 0; k < base.length; k++) {
                double v = base[k] + alpha * inner[k];
                if (v > cut) {
                    sum += Math.exp(v - max);
                }
            }
            return max + Math.log(sum) + logH;
        }
    }

    static double logAdd(double a, double b) {
        if (a == Double.NEGATIVE_INFINITY) {
            return b;
        }
        if (b == Double.NEGATIVE_INFINITY) {
            return a;
        }
        double m = Math.max(a, b);
        return m + Math.log1p(Math.exp(-Math.abs(a - b)));
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
