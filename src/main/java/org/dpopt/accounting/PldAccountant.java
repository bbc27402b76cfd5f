package org.dpopt.accounting;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import org.dpopt.accounting.pld.Direction;
import org.dpopt.accounting.pld.PldGridTooLargeException;
import org.dpopt.accounting.pld.PoissonGaussianExact;
import org.dpopt.accounting.pld.PrivacyLossDistribution;
import org.dpopt.accounting.pld.PrivacyLossDistributions;
import org.dpopt.accounting.pld.Rounding;
import org.dpopt.linalg.Checks;

/**
 * Privacy-loss-distribution accountant (name {@code "pld"}): numerically tight (ε, δ) for compositions
 * of Gaussian, Laplace, (ε, δ)-DP and Poisson-subsampled Gaussian releases, with an error bar — an
 * upper bound in every regime, or a refusal.
 *
 * <p>Method (Koskela, Jälkö, Honkela, AISTATS 2020, arXiv:1906.03049; Doroshenko, Ghazi, Kamath,
 * Kumar, Manurangsi, PoPETs 2022, arXiv:2207.04380): each leaf is replaced by its tightly dominating
 * pair, whose privacy loss is put on a grid of spacing h pessimistically (connect-the-dots: a curve
 * above the true one at every ε) and optimistically (losses rounded down); the composition is
 * evaluated by an exponentially tilted FFT at the queried ε, with FFT round-off, wrap-around and
 * truncation bounded and charged to δ ({@link PrivacyLossDistribution}; theory-notes/accounting.md §4).
 * {@link #epsilon}/{@link #delta} return upper bounds; {@link #report} also carries a certified lower
 * bound as {@code epsilonLower}, so the true ε of the dominating pairs lies in [epsilonLower, epsilon].
 *
 * <p><b>Standing guards.</b> Every upper bound is the minimum of the PLD bound and the Rényi-DP bound
 * ({@link RdpAccountant} at the integer orders {@link RdpAccountant#integerOrders()}, exact finite sums,
 * where it supports the event; both are valid upper bounds), and is checked
 * against an exact closed-form lower bound (max-statistic test of the subsampled Gaussian, exact for a
 * single step; exact Gaussian and Laplace curves). If the PLD grid cannot be made to fit (a tiny noise
 * multiplier makes the per-step loss range huge), the grid is coarsened 10× at a time (still valid,
 * looser); beyond that the Chernoff bound of the discretized pairs or RDP is reported; if nothing
 * applies the query is refused with an {@link IllegalArgumentException}. The report's notes say which
 * of these happened.
 *
 * <p>Leaves and relations:
 * <ul>
 *   <li>Gaussian, Laplace: the pair N(1, z²)/N(0, z²) resp. Lap(1, b)/Lap(0, b). Under
 *   {@link NeighboringRelation#REPLACE_ONE} the event's noise multiplier must be relative to the
 *   <em>replace-one</em> sensitivity (e.g. 2C for a sum of vectors clipped to norm C); the pair is then
 *   the same. Compositions of Gaussians are merged exactly into one Gaussian (1/z² adds), and an event
 *   made only of Gaussians is answered with the exact Balle–Wang curve.</li>
 *   <li>(ε, δ)-DP: its dominating pair (Kairouz–Oh–Viswanath), valid under either relation.</li>
 *   <li>Poisson-sampled Gaussian (add/remove-one only): remove and add directions are accounted
 *   separately for the whole event (a neighbouring pair is one direction for every step) and the
 *   larger δ (resp. ε) is reported. Under replace-one it is refused with
 *   {@link UnsupportedEventException}: running the add/remove accountant with sensitivity 2 is not an
 *   established bound; account under add/remove and apply group privacy (2ε′, (1 + e^{ε′})δ′).</li>
 *   <li>Parallel composition: at the top level the worst part (a neighbour changes one part only);
 *   nested inside a sequential composition, parts that are all equal count once, otherwise the parts
 *   are composed sequentially — sound but loose; the report notes it.</li>
 *   <li>NoOp: nothing; NonPrivate: ε = ∞.</li>
 * </ul>
 */
public final class PldAccountant implements PrivacyAccountant {

    /** Default discretization interval (what the reference tables of dp_accounting used). */
    public static final double DEFAULT_DISCRETIZATION = 1e-4;

    private static final int MAX_COARSENINGS = 4;
    private static final int LEAF_CACHE_SIZE = 32;

    private final double h;
    private final NeighboringRelation relation;
    private final RdpAccountant rdp;
    /** Discretized leaves (pure functions of their key), shared by the queries of this accountant. */
    private final Map<LeafKey, PrivacyLossDistribution> leaves = new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<LeafKey, PrivacyLossDistribution> e) {
            return size() > LEAF_CACHE_SIZE;
        }
    };

    private record LeafKey(DpEvent leaf, Direction direction, double grid, Rounding rounding) {
    }

    /** Upper bounds already computed (pure functions of event and δ): calibration's verification and the
     *  report at its result repeat the last evaluation of the search. */
    private final Map<DpEvent, Upper> lastUpper = new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<DpEvent, Upper> e) {
            return size() > 8;
        }
    };

    private record Upper(double delta, double epsilon, List<String> notes) {
    }

    /** The guarded upper bound of a normalized event with its notes, memoized per (event, δ). */
    private Upper upper(DpEvent e, double delta) {
        synchronized (lastUpper) {
            Upper hit = lastUpper.get(e);
            if (hit != null && hit.delta() == delta) {
                return hit;
            }
        }
        List<String> notes = new ArrayList<>();
        Upper u = new Upper(delta, upperEpsilon(e, delta, notes), List.copyOf(notes));
        synchronized (lastUpper) {
            lastUpper.put(e, u);
        }
        return u;
    }

    /** Add/remove-one with h = 1e-4. */
    public PldAccountant() {
        this(DEFAULT_DISCRETIZATION, NeighboringRelation.ADD_OR_REMOVE_ONE);
    }

    /**
     * @param discretization grid spacing h of the privacy loss, in [1e-7, 0.1]
     * @param relation neighbouring relation of the events' sensitivities
     */
    public PldAccountant(double discretization, NeighboringRelation relation) {
        this.h = Checks.inRange("discretization", discretization, 1e-7, 0.1);
        this.relation = Checks.notNull("relation", relation);
        this.rdp = new RdpAccountant(RdpAccountant.integerOrders(), RdpAccountant.Conversion.IMPROVED, relation);
    }

    @Override
    public String name() {
        return "pld";
    }

    @Override
    public NeighboringRelation relation() {
        return relation;
    }

    /** The discretization interval h. */
    public double discretization() {
        return h;
    }

    @Override
    public Optional<String> unsupportedReason(DpEvent event) {
        Checks.notNull("event", event);
        return Compositions.unsupportedReason(() -> check(event));
    }

    private void check(DpEvent e) {
        if (e instanceof ComposedEvent c) {
            c.events().forEach(this::check);
        } else if (e instanceof SelfComposedEvent s) {
            check(s.event());
        } else if (e instanceof ParallelComposedEvent p) {
            p.events().forEach(this::check);
        } else if (e instanceof PoissonSampledEvent p) {
            if (relation != NeighboringRelation.ADD_OR_REMOVE_ONE) {
                throw new UnsupportedEventException(e, name(), "Poisson subsampling is accounted under "
                        + "ADD_OR_REMOVE_ONE only; for replace-one account under add/remove and apply group privacy "
                        + "(2 eps, (1 + e^eps) delta)");
            }
            if (!(p.event() instanceof GaussianEvent || p.event() instanceof NoOpEvent)) {
                throw new UnsupportedEventException(p.event(), name(),
                        "only a Gaussian event may be Poisson-sampled for PLD accounting");
            }
        } else if (!(e instanceof NoOpEvent || e instanceof NonPrivateEvent || e instanceof GaussianEvent
                || e instanceof LaplaceEvent || e instanceof EpsilonDeltaEvent)) {
            throw new UnsupportedEventException(e, name(), "no privacy loss distribution is implemented for this "
                    + "event type");
        }
    }

    private DpEvent prepare(DpEvent event) {
        Checks.notNull("event", event);
        check(event);
        return DpEvents.normalize(event);
    }

    // ------------------------------------------------------------------ public queries

    @Override
    public double epsilon(DpEvent event, double delta) {
        Checks.delta("delta", delta);
        return upper(prepare(event), delta).epsilon();
    }

    @Override
    public double delta(DpEvent event, double epsilon) {
        Compositions.checkEpsilon(epsilon);
        return upperDelta(prepare(event), epsilon, null);
    }

    /** A certified lower bound on ε at δ for the dominating pairs (the report's {@code epsilonLower}). */
    public double epsilonLower(DpEvent event, double delta) {
        return report(event, delta).epsilonLower();
    }

    /** A certified lower bound on δ at ε for the dominating pairs. */
    public double deltaLower(DpEvent event, double epsilon) {
        Compositions.checkEpsilon(epsilon);
        DpEvent e = prepare(event);
        if (e instanceof ParallelComposedEvent par) {
            return Compositions.worstPart(par, part -> lowerDelta(DpEvents.normalize(part), epsilon));
        }
        return lowerDelta(e, epsilon);
    }

    @Override
    public PrivacyReport report(DpEvent event, double delta) {
        Checks.delta("delta", delta);
        DpEvent e = prepare(event);
        List<String> notes = new ArrayList<>();
        double up;
        double low;
        if (e instanceof ParallelComposedEvent par) {
            up = 0;
            low = 0;
            for (DpEvent part : new java.util.LinkedHashSet<>(par.events())) { // equal parts: equal bounds
                DpEvent p = DpEvents.normalize(part);
                Upper u = upper(p, delta);
                u.notes().forEach(n -> note(notes, n));
                up = Math.max(up, u.epsilon());
                low = Math.max(low, lowerEpsilon(p, delta, u.epsilon(), notes));
            }
            notes.add("parallel composition: worst part");
        } else {
            Upper u = upper(e, delta);
            notes.addAll(u.notes());
            up = u.epsilon();
            low = lowerEpsilon(e, delta, up, notes);
        }
        return new PrivacyReport(up, Math.min(low, up), delta, name(), relation, event, Bound.UPPER, dedupe(notes));
    }

    // ------------------------------------------------------------------ upper bounds with guards

    /** Top-level parallel: the worst part; otherwise the guarded upper bound of one event. */
    private double upperEpsilon(DpEvent e, double delta, List<String> notes) {
        if (e instanceof ParallelComposedEvent par) {
            return Compositions.worstPart(par, part -> upperEpsilon(DpEvents.normalize(part), delta, notes));
        }
        Special s = special(e);
        if (s != null) {
            note(notes, s.note);
            if (s.singleStep()) {
                return PoissonGaussianExact.singleStepEpsilon(s.q, s.gaussianZ, delta, true);
            }
            return s.nonPrivate ? Double.POSITIVE_INFINITY : s.trivial ? 0 : gaussianEpsilon(delta, s.gaussianZ);
        }
        double[] pld = pldValue(e, Rounding.CONNECT_THE_DOTS, p -> p.epsilon(delta), p -> p.chernoffEpsilon(delta), notes);
        double r = rdpEpsilon(e, delta);
        double up = Math.min(pld == null ? Double.POSITIVE_INFINITY : pld[0], r);
        if (pld == null && r == Double.POSITIVE_INFINITY && !rdpSupports(e)) {
            throw Checks.fail("event", "accountable by PLD on a grid of at most " + PrivacyLossDistribution.MAX_GRID_POINTS
                    + " points or by RDP (noise too small)", e.describe());
        }
        if (pld != null && r < pld[0]) {
            note(notes, "RDP bound " + r + " is below the PLD bound " + pld[0] + " here; the smaller is reported");
        }
        if (pld == null) {
            note(notes, "PLD infeasible at every grid; the RDP bound is reported");
        }
        double guard = LowerBounds.epsilon(e, delta, false);
        if (guard > up * (1 + 1e-9) + 1e-12) {
            // an upper bound below a certified lower bound is wrong: fall back to the other bound
            double other = pld != null && up == pld[0] ? r : pld == null ? Double.POSITIVE_INFINITY : pld[0];
            if (other >= guard) {
                note(notes, "GUARD: the exact lower bound " + guard + " exceeded " + up + "; reported " + other);
                return other;
            }
            throw new IllegalStateException("accountant inconsistency: certified lower bound " + guard
                    + " exceeds every upper bound (" + up + ") for " + e.describe());
        }
        return up;
    }

    private double upperDelta(DpEvent e, double epsilon, List<String> notes) {
        if (e instanceof ParallelComposedEvent par) {
            return Math.min(1, Compositions.worstPart(par, part -> upperDelta(DpEvents.normalize(part), epsilon, notes)));
        }
        Special s = special(e);
        if (s != null) {
            if (s.singleStep()) {
                return PoissonGaussianExact.singleStepDelta(s.q, s.gaussianZ, epsilon, true);
            }
            return s.nonPrivate ? 1 : s.trivial ? 0 : s.gaussianZ > 0 ? GaussianMechanism.delta(epsilon, s.gaussianZ) : 1;
        }
        double[] pld = pldValue(e, Rounding.CONNECT_THE_DOTS, p -> p.delta(epsilon), p -> p.chernoffDelta(epsilon), notes);
        double r;
        try {
            r = rdp.delta(e, epsilon);
        } catch (UnsupportedEventException ex) {
            r = 1;
        }
        double up = Math.min(1, Math.min(pld == null ? 1 : pld[0], r));
        double guard = LowerBounds.delta(e, epsilon);
        if (guard > up * (1 + 1e-9) + 1e-300) {
            double other = pld != null && up == pld[0] ? r : pld == null ? 1 : pld[0];
            if (other >= guard) {
                return Math.min(1, other);
            }
            throw new IllegalStateException("accountant inconsistency: certified lower bound " + guard
                    + " exceeds every upper bound (" + up + ") for " + e.describe());
        }
        return up;
    }

    /**
     * The certified lower bound: the optimistic (floor-rounded) PLD, centred at the upper bound
     * {@code upper}, and the exact test statistics; the optimistic PLD is skipped when its drift
     * (up to h per composed release) exceeds the upper bound itself, where it could only return 0.
     */
    private double lowerEpsilon(DpEvent e, double delta, double upper, List<String> notes) {
        Special s = special(e);
        if (s != null) {
            if (s.singleStep()) {
                return PoissonGaussianExact.singleStepEpsilon(s.q, s.gaussianZ, delta, false);
            }
            return s.nonPrivate ? Double.POSITIVE_INFINITY : s.trivial ? 0
                    : LowerBounds.epsilon(e, delta, false);
        }
        double stat = LowerBounds.epsilon(e, delta, true);
        double[] pld = null;
        if (releases(e) * h < upper) {
            pld = pldValue(e, Rounding.FLOOR, p -> p.epsilon(delta, upper), null, null);
        }
        double v = Math.max(pld == null ? 0 : pld[0], stat);
        if (pld == null || stat > pld[0]) {
            note(notes, "epsilon_lower from exact test statistics (max/sum of the noisy outputs)"
                    + (pld == null ? "; optimistic PLD not informative here (drift T*h)" : ", above the optimistic PLD"));
        }
        return v;
    }

    /** The number of non-Gaussian releases (the count that multiplies the floor-rounding drift). */
    private static double releases(DpEvent e) {
        if (e instanceof SelfComposedEvent s) {
            return s.count() * releases(s.event());
        }
        if (e instanceof ComposedEvent c) {
            double t = 0;
            for (DpEvent p : c.events()) {
                t += releases(p);
            }
            return t;
        }
        if (e instanceof ParallelComposedEvent p) {
            double t = 0;
            for (DpEvent x : p.events()) {
                t += releases(x);
            }
            return t;
        }
        return e instanceof NoOpEvent || e instanceof GaussianEvent ? 0 : 1;
    }

    private double lowerDelta(DpEvent e, double epsilon) {
        Special s = special(e);
        if (s != null) {
            if (s.singleStep()) {
                return PoissonGaussianExact.singleStepDelta(s.q, s.gaussianZ, epsilon, false);
            }
            return s.nonPrivate ? 1 : s.trivial ? 0 : LowerBounds.delta(e, epsilon);
        }
        double[] pld = pldValue(e, Rounding.FLOOR, p -> p.delta(epsilon), null, null);
        return Math.max(pld == null ? 0 : pld[0], LowerBounds.delta(e, epsilon));
    }

    /** Balle–Wang ε (upper end of its bracket); +∞ when the merged noise multiplier underflows to 0. */
    private static double gaussianEpsilon(double delta, double z) {
        return z > 0 ? GaussianMechanism.epsilon(delta, z) : Double.POSITIVE_INFINITY;
    }

    private double rdpEpsilon(DpEvent e, double delta) {
        try {
            return rdp.epsilon(e, delta);
        } catch (UnsupportedEventException ex) {
            return Double.POSITIVE_INFINITY;
        }
    }

    private boolean rdpSupports(DpEvent e) {
        return rdp.unsupportedReason(e).isEmpty();
    }

    private static void note(List<String> notes, String n) {
        if (notes != null && n != null && !notes.contains(n)) {
            notes.add(n);
        }
    }

    private static List<String> dedupe(List<String> notes) {
        List<String> out = new ArrayList<>();
        for (String n : notes) {
            if (!out.contains(n)) {
                out.add(n);
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ PLD evaluation

    /**
     * Events answered without a PLD: non-private, no release, Gaussians only (exact curve), or one
     * Poisson-subsampled Gaussian step (exact closed form, {@link PoissonGaussianExact}).
     */
    private record Special(boolean nonPrivate, boolean trivial, double gaussianZ, double q, String note) {
        boolean singleStep() {
            return q > 0;
        }
    }

    private static Special special(DpEvent e) {
        if (contains(e, NonPrivateEvent.class)) {
            return new Special(true, false, 0, 0, "non-private release");
        }
        if (e instanceof NoOpEvent || allNoOp(e)) {
            return new Special(false, true, 0, 0, "no release");
        }
        double precision = gaussianPrecision(e);
        if (precision > 0) {
            // an infinite precision (merged noise multiplier 0) is answered with ε = ∞, δ = 1
            return new Special(false, false, Double.isInfinite(precision) ? 0 : 1 / Math.sqrt(precision), 0,
                    "exact Gaussian curve (compositions of Gaussians are one Gaussian)");
        }
        if (e instanceof PoissonSampledEvent p && p.event() instanceof GaussianEvent g) {
            return new Special(false, false, g.noiseMultiplier(), p.samplingProbability(),
                    "one Poisson-subsampled Gaussian step: exact closed-form curve (both directions)");
        }
        return null;
    }

    /** True if every release is a no-op (e.g. Poisson-sampled no-ops). */
    private static boolean allNoOp(DpEvent e) {
        if (e instanceof NoOpEvent) {
            return true;
        }
        if (e instanceof PoissonSampledEvent p) {
            return allNoOp(p.event());
        }
        if (e instanceof SelfComposedEvent s) {
            return allNoOp(s.event());
        }
        if (e instanceof ComposedEvent c) {
            return c.events().stream().allMatch(PldAccountant::allNoOp);
        }
        if (e instanceof ParallelComposedEvent p) {
            return p.events().stream().allMatch(PldAccountant::allNoOp);
        }
        return false;
    }

    /**
     * The max over directions of {@code value} applied to the event's PLD at grid h, coarsened 10× at a
     * time while the grid does not fit; at the coarsest buildable grid, {@code fallback} (a bound that
     * needs no FFT) if given. Returns {value, grid}, or null if no grid works.
     */
    private double[] pldValue(DpEvent e, Rounding r, ToDoubleFunction<PrivacyLossDistribution> value,
            ToDoubleFunction<PrivacyLossDistribution> fallback, List<String> notes) {
        boolean symmetric = !contains(e, PoissonSampledEvent.class);
        List<Direction> dirs = symmetric ? List.of(Direction.REMOVE) : List.of(Direction.REMOVE, Direction.ADD);
        double grid = h;
        List<PrivacyLossDistribution> lastBuilt = null;
        double lastGrid = grid;
        for (int attempt = 0;; attempt++) {
            List<PrivacyLossDistribution> built = new ArrayList<>();
            try {
                List<String> local = new ArrayList<>();
                double v = Double.NEGATIVE_INFINITY;
                if (dirs.size() == 2) {
                    // the two directions are independent: the addition one on a second thread
                    final double g = grid;
                    java.util.concurrent.CompletableFuture<double[]> add = java.util.concurrent.CompletableFuture
                            .supplyAsync(() -> {
                                PrivacyLossDistribution p = pld(e, Direction.ADD, g, r, new ArrayList<>());
                                return new double[] {value.applyAsDouble(p)};
                            }, WORKERS);
                    PrivacyLossDistribution rem = pld(e, Direction.REMOVE, grid, r, local);
                    double vr;
                    try {
                        vr = value.applyAsDouble(rem);
                    } catch (RuntimeException ex) {
                        add.cancel(false);
                        throw ex;
                    }
                    double va = join(add);
                    built.add(rem);
                    built.add(pld(e, Direction.ADD, grid, r, local));
                    v = Math.max(vr, va);
                } else {
                    for (Direction d : dirs) {
                        built.add(pld(e, d, grid, r, local));
                    }
                    for (PrivacyLossDistribution p : built) {
                        v = Math.max(v, value.applyAsDouble(p));
                    }
                }
                lastBuilt = built;
                lastGrid = grid;
                if (notes != null) {
                    local.forEach(n -> note(notes, n));
                    if (r.isPessimistic()) {
                        note(notes, "PLD h=" + grid + ": connect-the-dots, tilted FFT with FFT round-off, wrap-around and "
                                + "truncation charged" + (symmetric ? "" : ", max over add and remove directions"));
                    }
                }
                return new double[] {v, grid};
            } catch (PldGridTooLargeException ex) {
                // jump straight to the first power-of-ten coarsening that can fit
                double factor = Math.pow(10, Math.max(1, Math.ceil(Math.log10(ex.coarseningNeeded()) - 1e-9)));
                double next = grid * factor;
                if (attempt >= MAX_COARSENINGS || next > 1 + 1e-12) {
                    break;
                }
                if (notes != null && r.isPessimistic()) {
                    note(notes, "grid too large at h=" + grid + "; coarsened to h=" + (float) next + " (looser but valid)");
                }
                grid = Double.parseDouble(Float.toString((float) next)); // keep h a round decimal
            }
        }
        if (fallback == null || lastBuilt == null) {
            return null;
        }
        double v = Double.NEGATIVE_INFINITY;
        for (PrivacyLossDistribution p : lastBuilt) {
            v = Math.max(v, fallback.applyAsDouble(p));
        }
        note(notes, "PLD FFT window too large even at h=" + lastGrid + "; Chernoff bound of the discretized pairs used");
        return new double[] {v, lastGrid};
    }

    /** One daemon worker for the second privacy-loss direction (the machines targeted have 2 cores). */
    private static final java.util.concurrent.ExecutorService WORKERS = java.util.concurrent.Executors.newFixedThreadPool(
            Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors() - 1)), runnable -> {
                Thread t = new Thread(runnable, "dpopt-pld-direction");
                t.setDaemon(true);
                return t;
            });

    private static double join(java.util.concurrent.CompletableFuture<double[]> f) {
        try {
            return f.join()[0];
        } catch (java.util.concurrent.CompletionException ex) {
            if (ex.getCause() instanceof RuntimeException re) {
                throw re;
            }
            if (ex.getCause() instanceof Error err) {
                throw err;
            }
            throw ex;
        }
    }

    /** The lazily composed PLD of a normalized, non-top-parallel, not all-no-op event. */
    private PrivacyLossDistribution pld(DpEvent e, Direction d, double grid, Rounding r, List<String> notes) {
        if (e instanceof GaussianEvent || e instanceof LaplaceEvent || e instanceof EpsilonDeltaEvent
                || e instanceof PoissonSampledEvent) {
            return leaf(e, d, grid, r);
        }
        if (e instanceof SelfComposedEvent s) {
            double precision = gaussianPrecision(e);
            if (precision > 0) {
                return leaf(new GaussianEvent(1 / Math.sqrt(precision)), d, grid, r);
            }
            PrivacyLossDistribution inner = pld(s.event(), d, grid, r, notes);
            return inner == null ? null : inner.selfCompose(s.count());
        }
        if (e instanceof ComposedEvent c) {
            return composeAll(c.events(), d, grid, r, notes);
        }
        if (e instanceof ParallelComposedEvent par) {
            if (par.events().stream().distinct().count() == 1) {
                return pld(par.events().get(0), d, grid, r, notes);
            }
            note(notes, "parallel composition nested in a sequential one: parts composed sequentially (sound, loose)");
            return composeAll(par.events(), d, grid, r, notes);
        }
        if (e instanceof NoOpEvent) {
            return null;
        }
        throw new UnsupportedEventException(e, name(), "no privacy loss distribution for this event type");
    }

    /** Composes parts; all Gaussian parts are first merged into one Gaussian (exact). */
    private PrivacyLossDistribution composeAll(List<DpEvent> parts, Direction d, double grid, Rounding r,
            List<String> notes) {
        double precision = 0;
        PrivacyLossDistribution acc = null;
        for (DpEvent part : parts) {
            double p = gaussianPrecision(part);
            if (p > 0) {
                precision += p;
                continue;
            }
            if (allNoOp(part)) {
                continue;
            }
            PrivacyLossDistribution x = pld(DpEvents.normalize(part), d, grid, r, notes);
            if (x != null) {
                acc = acc == null ? x : acc.compose(x);
            }
        }
        if (precision > 0) {
            PrivacyLossDistribution g = leaf(new GaussianEvent(1 / Math.sqrt(precision)), d, grid, r);
            acc = acc == null ? g : acc.compose(g);
        }
        return acc;
    }

    /** The discretized PLD of one leaf (cached). */
    private PrivacyLossDistribution leaf(DpEvent e, Direction d, double grid, Rounding r) {
        LeafKey key = new LeafKey(e, d, grid, r);
        synchronized (leaves) {
            PrivacyLossDistribution hit = leaves.get(key);
            if (hit != null) {
                return hit;
            }
        }
        PrivacyLossDistribution out;
        if (e instanceof GaussianEvent g) {
            out = PrivacyLossDistributions.gaussian(g.noiseMultiplier(), d, grid, r);
        } else if (e instanceof LaplaceEvent l) {
            out = PrivacyLossDistributions.laplace(l.noiseMultiplier(), d, grid, r);
        } else if (e instanceof EpsilonDeltaEvent ed) {
            out = PrivacyLossDistributions.epsilonDelta(ed.epsilon(), ed.delta(), grid, r);
        } else if (e instanceof PoissonSampledEvent p && p.event() instanceof GaussianEvent g) {
            out = PrivacyLossDistributions.poissonGaussian(p.samplingProbability(), g.noiseMultiplier(), d, grid, r);
        } else {
            throw new UnsupportedEventException(e, name(), "no privacy loss distribution for this event type");
        }
        synchronized (leaves) {
            leaves.put(key, out);
        }
        return out;
    }

    /**
     * Σ count/z² if the event is made only of Gaussian releases (possibly Poisson-sampled with q = 1,
     * composed, self-composed); 0 otherwise (also for NoOp-only events).
     */
    static double gaussianPrecision(DpEvent e) {
        if (e instanceof GaussianEvent g) {
            return 1 / (g.noiseMultiplier() * g.noiseMultiplier());
        }
        if (e instanceof PoissonSampledEvent p && p.samplingProbability() == 1.0) {
            return gaussianPrecision(p.event());
        }
        if (e instanceof SelfComposedEvent s) {
            double inner = gaussianPrecision(s.event());
            return inner * s.count();
        }
        if (e instanceof ComposedEvent c) {
            double sum = 0;
            for (DpEvent part : c.events()) {
                if (part instanceof NoOpEvent) {
                    continue;
                }
                double p = gaussianPrecision(part);
                if (p == 0) {
                    return 0;
                }
                sum += p;
            }
            return sum;
        }
        return 0;
    }

    private static boolean contains(DpEvent e, Class<? extends DpEvent> type) {
        if (type.isInstance(e)) {
            return true;
        }
        if (e instanceof ComposedEvent c) {
            return c.events().stream().anyMatch(x -> contains(x, type));
        }
        if (e instanceof ParallelComposedEvent p) {
            return p.events().stream().anyMatch(x -> contains(x, type));
        }
        if (e instanceof SelfComposedEvent s) {
            return contains(s.event(), type);
        }
        if (e instanceof PoissonSampledEvent p) {
            return contains(p.event(), type);
        }
        return false;
    }
}
