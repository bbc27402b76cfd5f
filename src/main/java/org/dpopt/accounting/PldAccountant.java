package org.dpopt.accounting;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.dpopt.accounting.pld.PrivacyLossDistribution;
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

    private final double h;
    private final NeighboringRelation relation;
    private final RdpAccountant rdp;
    private final PldEvaluator evaluator = new PldEvaluator("pld");

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
                u.notes().forEach(n -> Notes.add(notes, n));
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
        return new PrivacyReport(up, Math.min(low, up), delta, name(), relation, event, Bound.UPPER, Notes.dedupe(notes));
    }

    // ------------------------------------------------------------------ upper bounds with guards

    /** Top-level parallel: the worst part; otherwise the guarded upper bound of one event. */
    private double upperEpsilon(DpEvent e, double delta, List<String> notes) {
        if (e instanceof ParallelComposedEvent par) {
            return Compositions.worstPart(par, part -> upperEpsilon(DpEvents.normalize(part), delta, notes));
        }
        ClosedFormCase s = ClosedFormCase.of(e);
        if (s != null) {
            Notes.add(notes, s.note());
            return s.upperEpsilon(delta);
        }
        double[] pld = evaluator.value(e, h, Rounding.CONNECT_THE_DOTS, p -> p.epsilon(delta), p -> p.chernoffEpsilon(delta), notes);
        double r = rdpEpsilon(e, delta);
        double up = Math.min(pld == null ? Double.POSITIVE_INFINITY : pld[0], r);
        if (pld == null && r == Double.POSITIVE_INFINITY && !rdpSupports(e)) {
            throw Checks.fail("event", "accountable by PLD on a grid of at most " + PrivacyLossDistribution.MAX_GRID_POINTS
                    + " points or by RDP (noise too small)", e.describe());
        }
        if (pld != null && r < pld[0]) {
            Notes.add(notes, "RDP bound " + r + " is below the PLD bound " + pld[0] + " here; the smaller is reported");
        }
        if (pld == null) {
            Notes.add(notes, "PLD infeasible at every grid; the RDP bound is reported");
        }
        double guard = LowerBounds.epsilon(e, delta, false);
        if (guard > up * (1 + 1e-9) + 1e-12) {
            // an upper bound below a certified lower bound is wrong: fall back to the other bound
            double other = pld != null && up == pld[0] ? r : pld == null ? Double.POSITIVE_INFINITY : pld[0];
            if (other >= guard) {
                Notes.add(notes, "GUARD: the exact lower bound " + guard + " exceeded " + up + "; reported " + other);
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
        ClosedFormCase s = ClosedFormCase.of(e);
        if (s != null) {
            return s.upperDelta(epsilon);
        }
        double[] pld = evaluator.value(e, h, Rounding.CONNECT_THE_DOTS, p -> p.delta(epsilon), p -> p.chernoffDelta(epsilon), notes);
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
        ClosedFormCase s = ClosedFormCase.of(e);
        if (s != null) {
            return s.lowerEpsilon(e, delta);
        }
        double stat = LowerBounds.epsilon(e, delta, true);
        double[] pld = null;
        if (EventShapes.releases(e) * h < upper) {
            pld = evaluator.value(e, h, Rounding.FLOOR, p -> p.epsilon(delta, upper), null, null);
        }
        double v = Math.max(pld == null ? 0 : pld[0], stat);
        if (pld == null || stat > pld[0]) {
            Notes.add(notes, "epsilon_lower from exact test statistics (max/sum of the noisy outputs)"
                    + (pld == null ? "; optimistic PLD not informative here (drift T*h)" : ", above the optimistic PLD"));
        }
        return v;
    }

    private double lowerDelta(DpEvent e, double epsilon) {
        ClosedFormCase s = ClosedFormCase.of(e);
        if (s != null) {
            return s.lowerDelta(e, epsilon);
        }
        double[] pld = evaluator.value(e, h, Rounding.FLOOR, p -> p.delta(epsilon), null, null);
        return Math.max(pld == null ? 0 : pld[0], LowerBounds.delta(e, epsilon));
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


}
