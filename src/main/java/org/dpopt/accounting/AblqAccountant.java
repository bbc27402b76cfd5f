package org.dpopt.accounting;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.DoubleFunction;
import org.dpopt.linalg.Checks;

/**
 * Sampler-aware accounting of ABLQ / DP-SGD (Chua, Ghazi, Kamath, Kumar, Manurangsi, Sinha,
 * Zhang, "Scalable DP-SGD: Shuffling vs. Poisson Subsampling", NeurIPS 2024, arXiv:2411.04205, §3).
 * Each run is accounted for the sampler that produced it:
 *
 * <ul>
 *   <li>{@code SelfComposed(AblqStep(DETERMINISTIC, z, S), k)}: every record is in at most
 *       E = ⌈k/S⌉ batches, so the run is one Gaussian release of sensitivity √E:
 *       δ(ε) = Φ(√E/(2z) − εz/√E) − e^ε Φ(−√E/(2z) − εz/√E). Exact (upper = lower).</li>
 *   <li>Persistent / dynamic shuffle: upper bound = the deterministic curve (a shuffled run is a
 *       mixture over permutations of deterministic runs, and mixing cannot increase the
 *       hockey-stick divergence); optimistic lower bound = {@link ShuffleLowerBound} over the
 *       ⌊k/S⌋ complete epochs. The report carries both; ε is the upper one.</li>
 *   <li>{@code SelfComposed(PoissonSampled(q, Gaussian z), T)}: privacy-loss distributions of both
 *       add/remove directions (connect-the-dots, h = 1e-3: upper; floor rounding: optimistic lower),
 *       as in the paper's code; other Poisson events are delegated to an add/remove accountant.</li>
 *   <li>{@code SelfComposed(TruncatedPoisson(q, n, B, Gaussian z), T)}: the Poisson upper curve for
 *       T steps plus (1 + e^ε)(1 − (1 − r_B)^T) ({@link TruncationTerm}); no lower bound.</li>
 * </ul>
 *
 * <p>Relation: {@link NeighboringRelation#ZERO_OUT} (n public and fixed) by default, under which
 * every sampler has unit per-record sensitivity and the add/remove Poisson bound applies unchanged
 * (a zeroed record contributes nothing, exactly like a removed one). With
 * {@link NeighboringRelation#ADD_OR_REMOVE_ONE} only Poisson events are accepted: fixed partitions by
 * position are not safe when a removal shifts every later record.
 */
public final class AblqAccountant implements PrivacyAccountant {

    /** PLD grid spacing for Poisson upper bounds (1e-3 with connect-the-dots rounding, as in Chua et al. 2024's accounting). */
    public static final double PLD_DISCRETIZATION = 1e-3;
    /** Finer grid for the optimistic (floor-rounded) Poisson lower bound, whose error grows like T·h. */
    public static final double PLD_LOWER_DISCRETIZATION = 1e-4;

    private final NeighboringRelation relation;
    private final PrivacyAccountant poisson;
    private final boolean usePld;
    /** Poisson upper bounds (connect-the-dots at h = 1e-3, both directions, guarded; see {@link PldAccountant}). */
    private final PldAccountant pldUpper = new PldAccountant(PLD_DISCRETIZATION, NeighboringRelation.ADD_OR_REMOVE_ONE);
    /** Poisson lower bounds (floor rounding at h = 1e-4, and exact test statistics). */
    private final PldAccountant pldLower = new PldAccountant(PLD_LOWER_DISCRETIZATION,
            NeighboringRelation.ADD_OR_REMOVE_ONE);

    /** Zero-out relation; PLD for T-fold Poisson-sampled Gaussians, RDP for other Poisson events. */
    public AblqAccountant() {
        this(NeighboringRelation.ZERO_OUT, new RdpAccountant(), true);
    }

    /**
     * @param relation ZERO_OUT (all samplers) or ADD_OR_REMOVE_ONE (Poisson only)
     * @param poissonAccountant an add/remove accountant for Poisson events (upper bounds)
     */
    public AblqAccountant(NeighboringRelation relation, PrivacyAccountant poissonAccountant) {
        this(relation, poissonAccountant, false);
    }

    /**
     * @param relation ZERO_OUT (all samplers) or ADD_OR_REMOVE_ONE (Poisson only)
     * @param poissonAccountant an add/remove accountant for Poisson events the PLD path does not take
     * @param usePld account {@code SelfComposed(PoissonSampled(q, Gaussian(z)), T)} (also inside
     *               truncated Poisson) by PLD (connect-the-dots, h = 1e-3, both directions) with an
     *               optimistic floor-rounded lower bound
     */
    public AblqAccountant(NeighboringRelation relation, PrivacyAccountant poissonAccountant, boolean usePld) {
        this.usePld = usePld;
        this.relation = Checks.notNull("relation", relation);
        if (relation == NeighboringRelation.REPLACE_ONE) {
            throw Checks.fail("relation", "ZERO_OUT or ADD_OR_REMOVE_ONE", relation);
        }
        this.poisson = Checks.notNull("poissonAccountant", poissonAccountant);
        if (poisson.relation() != NeighboringRelation.ADD_OR_REMOVE_ONE) {
            throw Checks.fail("poissonAccountant relation", "ADD_OR_REMOVE_ONE", poisson.relation());
        }
    }

    @Override
    public String name() {
        return "ablq";
    }

    @Override
    public NeighboringRelation relation() {
        return relation;
    }

    /** Classifies the normalized event (see {@link AblqRun#classify}). */
    private AblqRun classify(DpEvent event) {
        return AblqRun.classify(event, relation, name());
    }

    @Override
    public Optional<String> unsupportedReason(DpEvent event) {
        try {
            AblqRun c = classify(event);
            if (c instanceof AblqRun.Poisson p) {
                return poisson.unsupportedReason(p.event());
            }
            return Optional.empty();
        } catch (UnsupportedEventException ex) {
            return Optional.of(ex.getMessage());
        }
    }

    @Override
    public double delta(DpEvent event, double epsilon) {
        if (!(epsilon >= 0)) {
            throw Checks.fail("epsilon", "non-negative", epsilon);
        }
        AblqRun c = classify(event);
        if (c instanceof AblqRun.Fixed f) {
            return GaussianMechanism.delta(epsilon, f.upperZ());
        }
        if (c instanceof AblqRun.Truncated t) {
            return Math.min(1, poissonDelta(t.untruncated(), epsilon) + t.term(epsilon));
        }
        return poissonDelta(((AblqRun.Poisson) c).event(), epsilon);
    }

    @Override
    public double epsilon(DpEvent event, double delta) {
        Checks.delta("delta", delta);
        AblqRun c = classify(event);
        if (c instanceof AblqRun.Fixed f) {
            return GaussianMechanism.epsilon(delta, f.upperZ());
        }
        if (c instanceof AblqRun.Truncated t) {
            return truncatedEpsilon(t, delta);
        }
        return poissonEpsilon(((AblqRun.Poisson) c).event(), delta);
    }

    /** The smallest ε with δ_P(ε) + (1 + e^ε)η ≤ δ ({@link TruncationTerm#smallestEpsilon}). */
    private double truncatedEpsilon(AblqRun.Truncated t, double delta) {
        DpEvent p = t.untruncated();
        return TruncationTerm.smallestEpsilon(eps -> poissonDelta(p, eps), d -> poissonEpsilon(p, d), t.eta(), delta);
    }

    /** (q, z, T) if the event is T Poisson-sampled Gaussians and the PLD path is on; else null. */
    private double[] pldForm(DpEvent e) {
        if (!usePld) {
            return null;
        }
        DpEvent n = DpEvents.normalize(e);
        DpEvent leaf = n instanceof SelfComposedEvent s ? s.event() : n;
        long count = n instanceof SelfComposedEvent s ? s.count() : 1;
        if (leaf instanceof PoissonSampledEvent p && p.event() instanceof GaussianEvent g) {
            return new double[] {p.samplingProbability(), g.noiseMultiplier(), count};
        }
        return null;
    }

    private double poissonDelta(DpEvent e, double epsilon) {
        return pldForm(e) == null ? poisson.delta(e, epsilon) : pldUpper.delta(e, epsilon);
    }

    private double poissonEpsilon(DpEvent e, double delta) {
        return pldForm(e) == null ? poisson.epsilon(e, delta) : pldUpper.epsilon(e, delta);
    }

    /**
     * An optimistic lower bound on δ(ε): exact for deterministic batches, the paper's max-statistic
     * bound for shuffled batches (complete epochs only), NaN where no lower bound is implemented
     * (Poisson and truncated Poisson until a PLD accountant is plugged in; partial epochs).
     */
    public double deltaLower(DpEvent event, double epsilon) {
        if (!(epsilon >= 0)) {
            throw Checks.fail("epsilon", "non-negative", epsilon);
        }
        AblqRun c = classify(event);
        if (c instanceof AblqRun.Poisson p && pldForm(p.event()) != null) {
            return pldLower.deltaLower(p.event(), epsilon);
        }
        if (!(c instanceof AblqRun.Fixed f)) {
            return Double.NaN;
        }
        double z = f.step().noiseMultiplier();
        long s = f.step().stepsPerEpoch();
        switch (f.step().order()) {
            case DETERMINISTIC:
                return GaussianMechanism.delta(epsilon, f.upperZ());
            case PERSISTENT_SHUFFLE:
                return f.fullEpochs() == 0 ? Double.NaN : ShuffleLowerBound.persistentDelta(epsilon, z, s, f.fullEpochs());
            default:
                return f.fullEpochs() == 0 ? Double.NaN : ShuffleLowerBound.dynamicDelta(epsilon, z, s, f.fullEpochs());
        }
    }

    /**
     * An optimistic lower bound on ε(δ): the lower end of a bisection bracket on the lower δ curve
     * (which is non-increasing in ε); NaN where {@link #deltaLower} is NaN.
     */
    public double epsilonLower(DpEvent event, double delta) {
        Checks.delta("delta", delta);
        AblqRun c = classify(event);
        if (c instanceof AblqRun.Poisson p && pldForm(p.event()) != null) {
            return Math.min(pldLower.epsilonLower(p.event(), delta), epsilon(event, delta));
        }
        if (Double.isNaN(deltaLower(event, 0))) {
            return Double.NaN;
        }
        if (deltaLower(event, 0) <= delta) {
            return 0;
        }
        double hi = 1;
        while (deltaLower(event, hi) > delta) {
            hi *= 2;
            if (hi > 1e4) {
                return hi / 2;
            }
        }
        double lo = hi == 1 ? 0 : hi / 2;
        return Bisection.bracket(lo, hi, mid -> !(deltaLower(event, mid) > delta),
                (a, b) -> b - a > 1e-7 * Math.max(1, b), 100)[0];
    }

    @Override
    public PrivacyReport report(DpEvent event, double delta) {
        AblqRun c = classify(event);
        double eps = epsilon(event, delta);
        List<String> notes = new ArrayList<>();
        double lower = Double.NaN;
        if (c instanceof AblqRun.Fixed f) {
            lower = epsilonLower(event, delta);
            switch (f.step().order()) {
                case DETERMINISTIC:
                    notes.add("deterministic batches: Gaussian with sensitivity sqrt(E) = sqrt(" + f.epochsTouched()
                            + "), exact");
                    break;
                default:
                    notes.add("shuffled batches (" + f.step().order() + "): the upper bound is the deterministic-batch "
                            + "one (a shuffle is a mixture of fixed orders); the lower bound is the OPTIMISTIC one of Chua et "
                            + "al. 2024 (max statistic, MoG(2) vs MoG(1)); the true epsilon lies in between; Poisson "
                            + "accounting does not apply");
                    if (f.fullEpochs() * f.step().stepsPerEpoch() != f.count()) {
                        notes.add("partial epoch: the lower bound uses the " + f.fullEpochs() + " complete epochs");
                    }
            }
        } else if (c instanceof AblqRun.Truncated t) {
            notes.add("truncated Poisson: Poisson upper bound plus (1 + e^eps) * " + t.eta()
                    + " (probability that any of " + t.count() + " batches overflows B = " + t.step().maxBatchSize() + ")");
            if (Double.isInfinite(eps)) {
                notes.add("no epsilon: the truncation term alone reaches delta; raise the maximum batch size");
            }
        } else if (pldForm(((AblqRun.Poisson) c).event()) != null) {
            lower = epsilonLower(event, delta);
            notes.add("Poisson: PLD upper bound (connect-the-dots, h = " + PLD_DISCRETIZATION + ", both directions, "
                    + "round-off charged, min with RDP); epsilon_lower from floor rounding (h = "
                    + PLD_LOWER_DISCRETIZATION + ") and exact test statistics");
        } else {
            PrivacyReport r = poisson.report(((AblqRun.Poisson) c).event(), delta);
            lower = r.epsilonLower();
            notes.addAll(r.notes());
            notes.add("Poisson events accounted by " + poisson.name());
        }
        return new PrivacyReport(eps, lower, delta, name(), relation, DpEvents.normalize(event), Bound.UPPER, notes);
    }

    /**
     * σ_𝔅(ε, δ): the smallest noise multiplier whose δ at ε is at most the target, on the requested
     * side. UPPER reuses {@link Calibration#noiseMultiplier} (a guarantee); LOWER searches the
     * optimistic curve (the paper's "σ bound" for shuffling; what is truly needed is at least this).
     *
     * @throws IllegalArgumentException if the bound is LOWER and no lower curve exists for the event
     */
    public double noiseMultiplier(DoubleFunction<DpEvent> eventOf, double epsilon, double delta, Bound bound,
            double relTol) {
        Checks.notNull("bound", bound);
        if (bound == Bound.UPPER) {
            return Calibration.noiseMultiplier(this, eventOf, epsilon, delta, relTol);
        }
        Checks.epsilon("epsilon", epsilon);
        Checks.delta("delta", delta);
        Checks.openUnit("relTol", relTol);
        if (Double.isNaN(deltaLower(eventOf.apply(1.0), epsilon))) {
            throw Checks.fail("bound", "UPPER for this sampler (no lower bound is implemented for it)", bound);
        }
        double hi = 1;
        int guard = 0;
        while (deltaLower(eventOf.apply(hi), epsilon) > delta) {
            hi *= 2;
            if (++guard > 40) {
                throw new IllegalArgumentException("privacy budget must be reachable but was not up to z = " + hi);
            }
        }
        double lo = hi / 2;
        while (lo > 1e-6 && deltaLower(eventOf.apply(lo), epsilon) <= delta) {
            hi = lo;
            lo /= 2;
        }
        // invariant: lower δ(lo) > δ ≥ lower δ(hi); the lower end is the optimistic side
        return Bisection.bracket(lo, hi, mid -> deltaLower(eventOf.apply(mid), epsilon) <= delta,
                (a, b) -> b - a > relTol * b)[0];
    }
}
