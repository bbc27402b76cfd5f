package org.dpopt.optim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.DpEvents;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.ParallelComposedEvent;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.accounting.PrivacyLedger;
import org.dpopt.accounting.PrivacyReport;
import org.dpopt.accounting.RdpAccountant;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.geometry.MirrorMap;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.Problem;
import org.ejml.data.DMatrixRMaj;

/**
 * Proximally guided private stochastic mirror descent for ρ-weakly convex, L-Lipschitz, possibly
 * non-smooth losses in ℓp geometry, 1 ≤ p ≤ 2 (Bassily, Guzmán, Menart, "Differentially Private
 * Stochastic Optimization: New Results in Convex and Non-Convex Settings", NeurIPS 2021,
 * arXiv:2107.05585, Algorithm 6 / Theorem 20; outer loop of Davis and Grimmer, "Proximally guided
 * stochastic subgradient method for nonsmooth, nonconvex problems", SIAM J. Optim. 2019,
 * arXiv:1707.03505).
 *
 * <pre>
 *   w_1: random point with ‖w_1‖_p̃ = D/2
 *   for t = 1..T_out:   w_{t+1} = Π_W( 𝒜_sc on part t of φ_t(w) = F(w) + ρκ‖w − w_t‖²_p̃ )
 *   output w_{t*},  t* uniform on {1, …, T_out}
 * </pre>
 *
 * where ρκ‖·‖²_p̃ = 2ρψ, so φ_t is ρ-strongly convex w.r.t. ‖·‖_p̃ and its minimizer lies within
 * R₀ = 2C/ρ of w_t (C the Lipschitz bound). 𝒜_sc is {@link LocalizedMirrorDescent} with K phases.
 *
 * <p><b>Parameters</b> (derived in {@code theory-notes/mirror-descent.md}; the paper's constants are
 * UNCONFIRMED, spec §4.6): with ΔF̄ = 2CD a public bound on F(w_1) − inf_W F,
 * T_out = ⌊min(√(ρΔF̄ n/(C²κ)), (ρΔF̄ ε²n²/(C²κ d ln(1/δ)))^{1/3})⌋ (at least 1), which balances the
 * Davis–Grimmer descent term ρΔF̄/T_out against the strongly convex solver's error on n/T_out
 * records; K = ⌈log₂log₂(n/T_out)⌉ + 1. Both can be overridden.
 *
 * <p><b>Domain.</b> The problem's domain must be a centred ℓ2 ball of radius D; the algorithm works in
 * W = {‖w‖_p̃ ≤ D} ⊆ that ball (equal for p̃ = 2). Implementation note: each proximal subproblem is
 * solved over the localization balls of 𝒜_sc (not intersected with W) and its output is mapped into W
 * by the radial Bregman projection; the loss must therefore be Lipschitz everywhere (all library losses
 * clamp their derivative so that it is).
 *
 * <p><b>Privacy.</b> Add/remove-one. Each record is assigned to one of the T_out·K parts by an
 * independent uniform label (independent of the data and of the other records, as parallel
 * composition under add/remove-one requires); the part sizes are random but every normalizer uses the
 * public expected size n/(T_out K). Each part is one 𝒜_sc phase ({@link LocalizedMirrorDescent.PhasePlan}
 * calibrated to (ε, δ)), so the run is their {@link ParallelComposedEvent}: stated up front by
 * {@link #privacyEvent}, recorded part by part, and the two are equal.
 */
public final class ProximallyGuidedMirrorDescent extends LegacyOptimizer {

    /** Smallest planned part size accepted. */
    public static final int MIN_PART_SIZE = 8;

    private final double p;
    private final int rounds;
    private final int innerPhases;
    private final double rho;
    private final int diagnosticIterations;
    private final int trajectoryPoints;
    private final PrivacyAccountant accountant;
    private final DMatrixRMaj initialPoint; // null: random

    private ProximallyGuidedMirrorDescent(Builder b) {
        this.initialPoint = b.initialPoint == null ? null : b.initialPoint.copy();
        this.p = b.p;
        this.rounds = b.rounds;
        this.innerPhases = b.innerPhases;
        this.rho = b.rho;
        this.diagnosticIterations = b.diagnosticIterations;
        this.trajectoryPoints = b.trajectoryPoints;
        this.accountant = b.accountant;
    }

    /** A builder (p = 2, automatic T_out and K, RDP accountant). */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public String name() {
        return "pg-mirror-descent";
    }

    @Override
    public NeighboringRelation relation() {
        return NeighboringRelation.ADD_OR_REMOVE_ONE;
    }

    /**
     * Resolved public parameters.
     *
     * @param map the mirror map
     * @param radius D
     * @param lipschitz C
     * @param rho ρ used
     * @param rounds T_out
     * @param phases K
     * @param phase the per-part plan
     */
    record Plan(MirrorMap map, double radius, double lipschitz, double rho, int rounds, int phases,
            LocalizedMirrorDescent.PhasePlan phase) {
        int parts() {
            return rounds * phases;
        }
    }

    Plan plan(Problem problem, PrivacyBudget budget) {
        Checks.notNull("problem", problem);
        Checks.notNull("budget", budget);
        if (accountant.relation() != NeighboringRelation.ADD_OR_REMOVE_ONE) {
            throw Checks.fail("accountant relation", "ADD_OR_REMOVE_ONE", accountant.relation());
        }
        if (!(problem.domain() instanceof ConvexSets.L2Ball ball)) {
            throw Checks.fail("domain", "a centred L2 ball (give --radius)", problem.domain());
        }
        int n = problem.size();
        int d = problem.dimension();
        MirrorMap map = MirrorMap.lp(p, d);
        double c = problem.lipschitz();
        if (!Double.isFinite(c)) {
            throw Checks.fail("loss Lipschitz constant", "finite", c);
        }
        if (initialPoint != null && initialPoint.numRows != d) {
            throw Checks.fail("initialPoint dimension", "equal to the problem's " + d, initialPoint.numRows);
        }
        double declared = problem.loss().weakConvexity(problem.data().rowNormBound());
        double r = Double.isNaN(rho) ? declared : rho;
        if (!(r > 0) || !Double.isFinite(r)) {
            throw Checks.fail("weak convexity rho", "positive and finite (set rho for a convex loss)", r);
        }
        if (r < declared) {
            throw Checks.fail("rho", "at least the loss's declared weak convexity " + declared, r);
        }
        double dRadius = ball.r();
        int tOut;
        if (rounds > 0) {
            tOut = rounds;
        } else {
            double gapBound = 2 * c * dRadius;
            double kappa = map.kappa();
            double stat = Math.sqrt(r * gapBound * n / (c * c * kappa));
            double eps = budget.epsilon();
            double priv = Math.cbrt(r * gapBound * eps * eps * n * (double) n
                    / (c * c * kappa * d * Math.log(1 / budget.delta())));
            tOut = (int) Math.max(1, Math.floor(Math.min(stat, priv)));
        }
        int k = innerPhases > 0 ? innerPhases : defaultPhases(n / (double) tOut);
        if (rounds <= 0 && n / ((double) tOut * k) < MIN_PART_SIZE) {
            tOut = Math.max(1, n / (k * MIN_PART_SIZE));
            k = innerPhases > 0 ? innerPhases : defaultPhases(n / (double) tOut);
        }
        double partSize = n / ((double) tOut * k);
        if (partSize < MIN_PART_SIZE) {
            throw Checks.fail("expected part size n/(rounds*phases)", "at least " + MIN_PART_SIZE, partSize);
        }
        LocalizedMirrorDescent.PhasePlan phase = LocalizedMirrorDescent.plan(partSize, accountant, budget);
        return new Plan(map, dRadius, c, r, tOut, k, phase);
    }

    /** K = ⌈log₂ log₂ m⌉ + 1 for a round of m records (at least 2). */
    static int defaultPhases(double m) {
        double l = Math.log(Math.max(m, 4)) / Math.log(2);
        return Math.max(2, (int) Math.ceil(Math.log(l) / Math.log(2)) + 1);
    }

    @Override
    public DpEvent privacyEvent(Problem problem, PrivacyBudget budget) {
        Plan pl = plan(problem, budget);
        return DpEvents.normalize(new ParallelComposedEvent(
                LocalizedMirrorDescent.phaseStatements(pl.phase(), pl.parts())));
    }

    @Override
    public OptimizationResult optimize(Problem problem, PrivacyBudget budget, UniformRandomProvider rng) {
        Checks.notNull("rng", rng);
        Plan pl = plan(problem, budget);
        MirrorMap map = pl.map();
        int n = problem.size();
        int d = problem.dimension();
        int parts = pl.parts();
        int[][] partIndex = partition(n, parts, rng);
        int tStar = rng.nextInt(pl.rounds()) + 1;

        DMatrixRMaj w;
        if (initialPoint != null) {
            w = initialPoint.copy();
            map.projectCentredBall(pl.radius(), w);
        } else {
            w = initialPoint(d, pl.radius() / 2, map, rng);
        }
        DMatrixRMaj out = tStar == 1 ? w.copy() : null;
        // non-private diagnostic: copies of w_t at evenly spaced rounds t ∈ {1..T_out}
        int points = diagnosticIterations > 0 ? Math.min(trajectoryPoints, pl.rounds()) : 0;
        List<DMatrixRMaj> trajectory = new ArrayList<>(points);
        int nextPoint = 0;
        if (points > 0 && trajectoryRound(0, points, pl.rounds()) == 1) {
            trajectory.add(w.copy());
            nextPoint = 1;
        }
        LocalizedMirrorDescent asc = new LocalizedMirrorDescent(map);
        LocalizedMirrorDescent.Counters counters = new LocalizedMirrorDescent.Counters();
        List<DpEvent> recorded = new ArrayList<>(parts);
        double r0 = 2 * pl.lipschitz() / pl.rho();
        for (int t = 1; t <= pl.rounds(); t++) {
            int[][] mine = new int[pl.phases()][];
            System.arraycopy(partIndex, (t - 1) * pl.phases(), mine, 0, pl.phases());
            LocalizedMirrorDescent.Objective obj = new LocalizedMirrorDescent.Objective(problem.data(),
                    problem.loss(), pl.lipschitz(), w, 2 * pl.rho(), pl.rho(), r0);
            w = asc.run(obj, mine, pl.phase(), recorded, rng, counters);
            map.projectCentredBall(pl.radius(), w);
            if (t + 1 == tStar) {
                out = w.copy();
            }
            if (nextPoint < points && trajectoryRound(nextPoint, points, pl.rounds()) == t + 1) {
                trajectory.add(w.copy());
                nextPoint++;
            }
        }
        PrivacyLedger ledger = new PrivacyLedger();
        ledger.record(new ParallelComposedEvent(recorded));
        DpEvent event = ledger.build();
        PrivacyReport report = accountant.report(event, budget.delta());
        if (report.epsilon() > budget.epsilon() * (1 + 1e-9)) {
            throw new IllegalStateException("calibrated run spent epsilon " + report.epsilon()
                    + " above the budget " + budget.epsilon());
        }
        Map<String, Double> params = new HashMap<>();
        params.put("p", p);
        params.put("p_tilde", map.effectiveP());
        params.put("kappa", map.kappa());
        params.put("rho", pl.rho());
        params.put("lipschitz", pl.lipschitz());
        params.put("radius", pl.radius());
        params.put("r0", r0);
        params.put("rounds", (double) pl.rounds());
        params.put("phases_per_round", (double) pl.phases());
        params.put("part_size", pl.phase().plannedSize());
        params.put("batch_size", (double) pl.phase().batch());
        params.put("steps_per_phase", (double) pl.phase().steps());
        params.put("noise_multiplier", pl.phase().noiseMultiplier());
        params.put("sigma", pl.phase().noiseMultiplier() * pl.lipschitz());
        params.put("t_star", (double) tStar);
        Map<String, Double> diag = new HashMap<>();
        diag.put("train_loss", problem.empiricalRisk(out));
        if (diagnosticIterations > 0) {
            ProximalStationarity.Result st = ProximalStationarity.compute(problem, map, pl.rho(), out,
                    diagnosticIterations);
            diag.put("near_stationarity", st.stationarity());
            diag.put("prox_gap", st.gap());
        }
        if (!trajectory.isEmpty()) {
            double sum = 0;
            for (DMatrixRMaj v : trajectory) {
                sum += ProximalStationarity.compute(problem, map, pl.rho(), v, diagnosticIterations)
                        .stationarity();
            }
            diag.put("expected_near_stationarity", sum / trajectory.size());
            diag.put("trajectory_points", (double) trajectory.size());
        }
        return result(problem, budget, out, report, event, counters.steps, counters.evaluations, params, diag);
    }

    /** The k-th of m evenly spaced rounds in {1..T}: 1 + ⌊(k + ½)·T/m⌋ (stratified sample of t*). */
    static int trajectoryRound(int k, int m, int rounds) {
        return 1 + (int) Math.floor((k + 0.5) * rounds / m);
    }

    /** Independent uniform labels in [0, parts): a data-independent partition safe under add/remove-one. */
    static int[][] partition(int n, int parts, UniformRandomProvider rng) {
        int[] label = new int[n];
        int[] count = new int[parts];
        for (int i = 0; i < n; i++) {
            label[i] = rng.nextInt(parts);
            count[label[i]]++;
        }
        int[][] out = new int[parts][];
        for (int k = 0; k < parts; k++) {
            out[k] = new int[count[k]];
            count[k] = 0;
        }
        for (int i = 0; i < n; i++) {
            out[label[i]][count[label[i]]++] = i;
        }
        return out;
    }

    private static DMatrixRMaj initialPoint(int d, double norm, MirrorMap map, UniformRandomProvider rng) {
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
        DMatrixRMaj w = new DMatrixRMaj(d, 1);
        for (int j = 0; j < d; j++) {
            w.data[j] = g.sample();
        }
        double s = map.norm(w);
        for (int j = 0; j < d; j++) {
            w.data[j] *= norm / s;
        }
        return w;
    }

    /** Builder; every setter validates. */
    public static final class Builder {
        private double p = 2;
        private int rounds = 0;
        private int innerPhases = 0;
        private double rho = Double.NaN;
        private int diagnosticIterations = 300;
        private int trajectoryPoints = 0;
        private PrivacyAccountant accountant = new RdpAccountant();
        private DMatrixRMaj initialPoint;

        private Builder() {
        }

        /**
         * A public, data-independent starting point w_1 (copied; mapped into W). Default: a random
         * direction with ‖w_1‖_p̃ = D/2 drawn from the run's rng.
         */
        public Builder initialPoint(DMatrixRMaj w1) {
            Checks.finiteVector("initialPoint", w1);
            this.initialPoint = w1.copy();
            return this;
        }

        /** The geometry p ∈ [1, 2] (default 2). */
        public Builder p(double v) {
            this.p = Checks.inRange("p", v, 1, 2);
            return this;
        }

        /** Fixes T_out (default: from Theorem 20's balance). */
        public Builder rounds(int t) {
            this.rounds = Checks.atLeastOne("rounds", t);
            return this;
        }

        /** Fixes K, the phases of each 𝒜_sc call (default ⌈log₂log₂(n/T_out)⌉ + 1). */
        public Builder innerPhases(int k) {
            this.innerPhases = Checks.atLeastOne("innerPhases", k);
            return this;
        }

        /** The weak-convexity ρ to use (default: the loss's declared value; must not be smaller). */
        public Builder rho(double r) {
            Checks.positive("rho", r);
            this.rho = Checks.finite("rho", r);
            return this;
        }

        /** Iterations of the non-private near-stationarity diagnostic (0 disables it; default 300). */
        public Builder diagnosticIterations(int k) {
            if (k < 0) {
                throw Checks.fail("diagnosticIterations", "non-negative", k);
            }
            this.diagnosticIterations = k;
            return this;
        }

        /**
         * Also evaluate the non-private near-stationarity at k evenly spaced rounds and report their
         * mean as {@code expected_near_stationarity}: a low-variance estimate of E_{t*}[stationarity],
         * the quantity Theorem 20 bounds (default 0: off; also off when diagnosticIterations is 0). Costs k
         * diagnostic solves.
         */
        public Builder trajectoryPoints(int k) {
            if (k < 0) {
                throw Checks.fail("trajectoryPoints", "non-negative", k);
            }
            this.trajectoryPoints = k;
            return this;
        }

        /** Accountant for calibration and the report (default RDP, add/remove-one). */
        public Builder accountant(PrivacyAccountant a) {
            this.accountant = Checks.notNull("accountant", a);
            return this;
        }

        /** Builds the immutable optimizer. */
        public ProximallyGuidedMirrorDescent build() {
            return new ProximallyGuidedMirrorDescent(this);
        }
    }
}
