package org.dpopt.accounting;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.DoubleUnaryOperator;
import java.util.function.ToDoubleFunction;
import org.dpopt.accounting.pld.Direction;
import org.dpopt.accounting.pld.PldGridTooLargeException;
import org.dpopt.accounting.pld.PrivacyLossDistribution;
import org.dpopt.accounting.pld.PrivacyLossDistributions;
import org.dpopt.accounting.pld.Rounding;
import org.dpopt.linalg.Checks;

/**
 * Privacy-loss-distribution accountant (name {@code "pld"}): numerically tight (ε, δ) for compositions
 * of Gaussian, Laplace, (ε, δ)-DP and Poisson-subsampled Gaussian releases, with an error bar.
 *
 * <p>Method (Koskela, Jälkö, Honkela, AISTATS 2020, arXiv:1906.03049; Doroshenko et al., PoPETs 2022,
 * arXiv:2207.04380; as in Google's dp_accounting): each leaf is replaced by its tightly dominating pair,
 * the pair's privacy loss is put on a grid of spacing h twice — pessimistically (connect-the-dots: a
 * curve above the true one at every ε) and optimistically (losses rounded down) — and the leaves are
 * composed by FFT ({@link PrivacyLossDistribution}). {@link #epsilon}/{@link #delta} return the
 * pessimistic (upper) bound; {@link #report} also carries the optimistic lower bound as
 * {@code epsilonLower}, so the true ε of the dominating pairs lies in [epsilonLower, epsilon].
 *
 * <p>Leaves and relations:
 * <ul>
 *   <li>Gaussian, Laplace: the pair N(1, z²)/N(0, z²) resp. Lap(1, b)/Lap(0, b). Under
 *   {@link NeighboringRelation#REPLACE_ONE} the event's noise multiplier must be relative to the
 *   <em>replace-one</em> sensitivity (e.g. 2C for a sum of vectors clipped to norm C, twice the
 *   add/remove sensitivity C); the pair is then the same. Compositions of Gaussians are merged exactly
 *   into one Gaussian (1/z² adds), and an event made only of Gaussians is answered with the exact
 *   Balle–Wang curve (no discretization; upper = lower).</li>
 *   <li>(ε, δ)-DP: its dominating pair (Kairouz–Oh–Viswanath), valid under either relation.</li>
 *   <li>Poisson-sampled Gaussian (add/remove-one only): remove and add directions are accounted
 *   separately for the whole event (a neighbouring pair is one direction for every step) and the
 *   larger δ (resp. ε) is reported. Under replace-one it is refused with
 *   {@link UnsupportedEventException}: running the add/remove accountant with sensitivity 2 is not an
 *   established bound (ALGORITHMS.md §5.0); account under add/remove and apply group privacy
 *   (2ε′, (1 + e^{ε′})δ′) instead.</li>
 *   <li>Parallel composition: at the top level the worst part (a neighbour changes one part only);
 *   nested inside a sequential composition, parts that are all equal count once, otherwise the parts
 *   are composed sequentially — sound (any pair dominates the identical-distribution pair of an
 *   unchanged part) but loose; the report notes it.</li>
 *   <li>NoOp: nothing; NonPrivate: ε = ∞.</li>
 * </ul>
 * If a grid would exceed {@link PrivacyLossDistribution#MAX_GRID_POINTS}, the accountant retries with a
 * 10× coarser grid (still a valid bound, just looser) and says so in the report.
 */
public final class PldAccountant implements PrivacyAccountant {

    /** Default discretization interval (what the reference tables of dp_accounting used). */
    public static final double DEFAULT_DISCRETIZATION = 1e-4;

    private static final int MAX_COARSENINGS = 4;

    private final double h;
    private final NeighboringRelation relation;

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
                        + "(2 eps, (1 + e^eps) delta), ALGORITHMS.md §5.0");
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

    /** Upper and lower curves of an event, per direction. */
    private record Bounds(List<PrivacyLossDistribution> upper, List<PrivacyLossDistribution> lower,
            double gaussianZ, boolean trivial, boolean nonPrivate, List<String> notes) {

        double epsilon(double delta, boolean up) {
            return value(up, Double.POSITIVE_INFINITY, z -> GaussianMechanism.epsilon(delta, z), p -> p.epsilon(delta));
        }

        double delta(double epsilon, boolean up) {
            return value(up, 1, z -> GaussianMechanism.delta(epsilon, z), p -> p.delta(epsilon));
        }

        /** ε(δ) or δ(ε): {@code ifNonPrivate}, 0, the exact Gaussian curve, or the max over directions. */
        private double value(boolean up, double ifNonPrivate, DoubleUnaryOperator gaussian,
                ToDoubleFunction<PrivacyLossDistribution> curve) {
            if (nonPrivate) {
                return ifNonPrivate;
            }
            if (trivial) {
                return 0;
            }
            if (gaussianZ > 0) {
                return gaussian.applyAsDouble(gaussianZ);
            }
            double worst = 0;
            for (PrivacyLossDistribution p : up ? upper : lower) {
                worst = Math.max(worst, curve.applyAsDouble(p));
            }
            return worst;
        }
    }

    @Override
    public double epsilon(DpEvent event, double delta) {
        Checks.delta("delta", delta);
        return worstCase(prepare(event), false, b -> b.epsilon(delta, true));
    }

    @Override
    public double delta(DpEvent event, double epsilon) {
        Compositions.checkEpsilon(epsilon);
        DpEvent e = prepare(event);
        double d = worstCase(e, false, b -> b.delta(epsilon, true));
        return Math.min(1, d); // δ is a probability: the bound is capped at 1 for every event shape
    }

    /** The optimistic lower bound on ε at δ (for the dominating pairs). */
    public double epsilonLower(DpEvent event, double delta) {
        return report(event, delta).epsilonLower();
    }

    /** The optimistic lower bound on δ at ε (for the dominating pairs). */
    public double deltaLower(DpEvent event, double epsilon) {
        Compositions.checkEpsilon(epsilon);
        return worstCase(prepare(event), true, b -> b.delta(epsilon, false));
    }

    /**
     * {@code value} of the bounds of a normalized event; for a top-level parallel composition the worst
     * part's (a neighbour changes one part only).
     */
    private double worstCase(DpEvent e, boolean withLower, ToDoubleFunction<Bounds> value) {
        if (e instanceof ParallelComposedEvent par) {
            return Compositions.worstPart(par, part -> value.applyAsDouble(bounds(part, withLower)));
        }
        return value.applyAsDouble(bounds(e, withLower));
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
            for (DpEvent part : par.events()) {
                Bounds b = bounds(part, true);
                up = Math.max(up, b.epsilon(delta, true));
                low = Math.max(low, b.epsilon(delta, false));
                b.notes().stream().filter(n -> !notes.contains(n)).forEach(notes::add);
            }
            notes.add("parallel composition: worst part");
        } else {
            Bounds b = bounds(e, true);
            up = b.epsilon(delta, true);
            low = b.epsilon(delta, false);
            notes.addAll(b.notes());
        }
        return new PrivacyReport(up, Math.min(low, up), delta, name(), relation, event, "upper", notes);
    }

    private DpEvent prepare(DpEvent event) {
        Checks.notNull("event", event);
        check(event);
        return DpEvents.normalize(event);
    }

    private Bounds bounds(DpEvent e, boolean withLower) {
        List<String> notes = new ArrayList<>();
        if (contains(e, NonPrivateEvent.class)) {
            return new Bounds(List.of(), List.of(), 0, false, true, List.of("non-private release"));
        }
        if (e instanceof NoOpEvent) {
            return new Bounds(List.of(), List.of(), 0, true, false, List.of("no release"));
        }
        double precision = gaussianPrecision(e);
        if (precision > 0) {
            notes.add("exact Gaussian curve (compositions of Gaussians are one Gaussian)");
            return new Bounds(List.of(), List.of(), 1 / Math.sqrt(precision), false, false, notes);
        }
        boolean symmetric = !contains(e, PoissonSampledEvent.class);
        List<Direction> dirs = symmetric ? List.of(Direction.REMOVE) : List.of(Direction.REMOVE, Direction.ADD);
        double grid = h;
        for (int attempt = 0;; attempt++) {
            try {
                List<PrivacyLossDistribution> upper = new ArrayList<>();
                List<PrivacyLossDistribution> lower = new ArrayList<>();
                for (Direction d : dirs) {
                    PrivacyLossDistribution u = pld(e, d, grid, Rounding.CONNECT_THE_DOTS, new HashMap<>(), notes);
                    if (u == null) { // every release was a no-op (e.g. a Poisson-sampled no-op)
                        return new Bounds(List.of(), List.of(), 0, true, false, List.of("no release"));
                    }
                    upper.add(u);
                    if (withLower) {
                        lower.add(pld(e, d, grid, Rounding.FLOOR, new HashMap<>(), notes));
                    }
                }
                notes.add(0, "PLD h=" + grid + ", pessimistic connect-the-dots / optimistic floor"
                        + (symmetric ? "" : ", max over add and remove directions"));
                return new Bounds(upper, lower, 0, false, false, dedupe(notes));
            } catch (PldGridTooLargeException ex) {
                if (attempt >= MAX_COARSENINGS || grid * 10 > 1) {
                    throw ex;
                }
                grid *= 10;
                notes.add("grid too large at h=" + grid / 10 + "; coarsened to h=" + grid + " (looser but valid)");
            }
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

    private PrivacyLossDistribution pld(DpEvent e, Direction d, double grid, Rounding r,
            Map<DpEvent, PrivacyLossDistribution> memo, List<String> notes) {
        PrivacyLossDistribution known = memo.get(e);
        if (known != null) {
            return known;
        }
        PrivacyLossDistribution out;
        if (e instanceof GaussianEvent g) {
            out = PrivacyLossDistributions.gaussian(g.noiseMultiplier(), d, grid, r);
        } else if (e instanceof LaplaceEvent l) {
            out = PrivacyLossDistributions.laplace(l.noiseMultiplier(), d, grid, r);
        } else if (e instanceof EpsilonDeltaEvent ed) {
            out = PrivacyLossDistributions.epsilonDelta(ed.epsilon(), ed.delta(), grid, r);
        } else if (e instanceof PoissonSampledEvent p) {
            if (p.event() instanceof NoOpEvent) {
                return null;
            }
            GaussianEvent g = (GaussianEvent) p.event();
            out = PrivacyLossDistributions.poissonGaussian(p.samplingProbability(), g.noiseMultiplier(), d, grid, r);
        } else if (e instanceof SelfComposedEvent s) {
            double precision = gaussianPrecision(e);
            if (precision > 0) {
                out = PrivacyLossDistributions.gaussian(1 / Math.sqrt(precision), d, grid, r);
            } else {
                PrivacyLossDistribution inner = pld(s.event(), d, grid, r, memo, notes);
                out = inner == null ? null : inner.selfCompose(s.count());
            }
        } else if (e instanceof ComposedEvent c) {
            out = composeAll(c.events(), d, grid, r, memo, notes);
        } else if (e instanceof ParallelComposedEvent par) {
            if (par.events().stream().distinct().count() == 1) {
                out = pld(par.events().get(0), d, grid, r, memo, notes);
            } else {
                notes.add("parallel composition nested in a sequential one: parts composed sequentially "
                        + "(sound, loose)");
                out = composeAll(par.events(), d, grid, r, memo, notes);
            }
        } else if (e instanceof NoOpEvent) {
            return null;
        } else {
            throw new UnsupportedEventException(e, name(), "no privacy loss distribution for this event type");
        }
        if (out != null) {
            memo.put(e, out);
        }
        return out;
    }

    /** Composes parts; all Gaussian parts are first merged into one Gaussian (exact). */
    private PrivacyLossDistribution composeAll(List<DpEvent> parts, Direction d, double grid, Rounding r,
            Map<DpEvent, PrivacyLossDistribution> memo, List<String> notes) {
        double precision = 0;
        PrivacyLossDistribution acc = null;
        for (DpEvent part : parts) {
            double p = gaussianPrecision(part);
            if (p > 0) {
                precision += p;
                continue;
            }
            PrivacyLossDistribution x = pld(part, d, grid, r, memo, notes);
            if (x != null) {
                acc = acc == null ? x : acc.compose(x);
            }
        }
        if (precision > 0) {
            PrivacyLossDistribution g = PrivacyLossDistributions.gaussian(1 / Math.sqrt(precision), d, grid, r);
            acc = acc == null ? g : acc.compose(g);
        }
        return acc;
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
