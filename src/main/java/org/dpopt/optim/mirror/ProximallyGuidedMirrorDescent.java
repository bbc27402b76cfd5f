package org.dpopt.optim.mirror;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.ParallelComposedEvent;
import org.dpopt.accounting.RdpAccountant;
import org.dpopt.geometry.MirrorMap;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.Problem;
import org.dpopt.loss.ProblemShape;
import org.dpopt.optim.Diagnostic;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.Param;
import org.dpopt.optim.Preset;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.RunParameters;
import org.dpopt.optim.RunPlan;
import org.dpopt.optim.core.BaseOptimizer;
import org.dpopt.optim.core.PresetBuilder;
import org.dpopt.optim.core.PrivateRun;
import org.dpopt.sampling.Partitions;
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
 * R₀ = 2C/ρ of w_t (C the Lipschitz bound). 𝒜_sc is noisy stochastic mirror descent with K phases of
 * localization.
 *
 * <p><b>Parameters</b> (derived in {@code theory-notes/mirror-descent.md §5}; the paper states its
 * constants only up to absolute factors): with ΔF̄ = 2CD a public bound on F(w_1) − inf_W F,
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
 * independent uniform label ({@link Partitions#independentLabels}: independent of the data and of the
 * other records, as parallel composition under add/remove-one requires); the part sizes are random but
 * every normalizer uses the public expected size n/(T_out K). Each part is one 𝒜_sc phase
 * ({@code SelfComposed(PoissonSampled(q, Gaussian(z)), T)} calibrated to (ε, δ)), so the statement is
 * their {@link ParallelComposedEvent}, recorded part by part through {@link PrivateRun#parallel()}.
 * Records are labelled and sampled independently of one another, so the plan is valid for any dataset
 * of at most the planned n rows. The random start and t* depend on the rng only.
 *
 * <p><b>Presets.</b> {@link Preset#PAPER} is the setting above. {@link Preset#PRACTICAL} (the default)
 * differs only for a convex loss (declared ρ = 0): it starts at the origin, runs one round of one phase
 * (T_out = K = 1, unless overridden), so the single part holds all n records, and releases the last
 * iterate w_{T_out+1} instead of w_{t*} (with T_out = 1 the theorem's w_{t*} would be the start). The
 * origin is a public constant and the last iterate is a function of the released noisy gradients and of
 * public step sizes, i.e. post-processing under the same statement; a weakly convex, non-convex loss
 * keeps the paper's random start (the origin can be a stationary point, as for phase retrieval) and
 * random output, which its stationarity guarantee needs. The practical preset also caps 𝒜_sc's initial
 * localization radius at R₀ = min(2C/ρ, 2D), see {@link PgmdSchedule#localizationRadius()}.
 */
public final class ProximallyGuidedMirrorDescent extends BaseOptimizer<ProximallyGuidedMirrorDescent.Builder> {

    /**
     * For a convex loss (declared ρ = 0) the paper preset's default ρ is C/(this·D): a weak proximal pull, so
     * the few outer rounds a small n allows still move far from the random start (fitted on validation
     * splits of public datasets; larger ρ left the model near its random start, theory-notes/defaults.md).
     * The practical preset uses {@link #practicalConvexRho}.
     */
    public static final double CONVEX_RHO_DIVISOR = 30;

    /** Smallest planned part size accepted. */
    public static final int MIN_PART_SIZE = 8;

    private ProximallyGuidedMirrorDescent(Builder b) {
        super("pg-mirror-descent", NeighboringRelation.ADD_OR_REMOVE_ONE, b);
    }

    /** A builder (p = 2, automatic T_out and K, RDP accountant). */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    protected RunPlan planFor(ProblemShape shape, PrivacyBudget budget) {
        shape.requireScalarModel(name());
        double radius = shape.domain().centredBallRadius().orElseThrow(() -> Checks.fail("domain",
                "a centred L2 ball (give --radius)", shape.domain()));
        int n = shape.size();
        int d = shape.dimension();
        MirrorMap map = MirrorMap.lp(config.p, d);
        double c = shape.lipschitz();
        if (!Double.isFinite(c)) {
            throw Checks.fail("loss Lipschitz constant", "finite", c);
        }
        if (config.initialPoint != null && config.initialPoint.numRows != d) {
            throw Checks.fail("initialPoint dimension", "equal to the problem's " + d, config.initialPoint.numRows);
        }
        double declared = shape.loss().weakConvexity(shape.rowNormBound());
        double r = Double.isNaN(config.rho) ? declared : config.rho;
        boolean practical = usesPracticalRule(config.preset(), declared);
        if (r == 0) {
            // a convex loss is rho-weakly convex for every rho >= 0: both defaults were fitted on validation
            // splits of public data (theory-notes/defaults.md)
            r = practical ? practicalConvexRho(c, radius, n) : c / (CONVEX_RHO_DIVISOR * radius);
        }
        if (!(r > 0) || !Double.isFinite(r)) {
            throw Checks.fail("weak convexity rho", "positive and finite", r);
        }
        if (r < declared) {
            throw Checks.fail("rho", "at least the loss's declared weak convexity " + declared, r);
        }
        int[] tk = practical
                ? new int[] {config.rounds > 0 ? config.rounds : 1, config.innerPhases > 0 ? config.innerPhases : 1}
                : PgmdRounds.of(config.rounds, config.innerPhases, n, d, map.kappa(), c, r, radius, budget);
        double partSize = n / ((double) tk[0] * tk[1]);
        if (partSize < MIN_PART_SIZE) {
            throw Checks.fail("expected part size n/(rounds*phases)", "at least " + MIN_PART_SIZE, partSize);
        }
        LocalizedMirrorDescent.PhasePlan phase = LocalizedMirrorDescent.plan(partSize, config.accountant(), budget);
        PgmdSchedule s = new PgmdSchedule(map, radius, c, r, tk[0], tk[1], phase, practical);
        return RunPlan.builder(name(), shape)
                .privacy(s.statement(), relation(), config.accountant(), budget)
                .parameters(parameters(shape, s))
                .exactSizeRequired(false)
                .detail(s)
                .build();
    }

    /**
     * Whether the practical rule applies: the practical preset for a convex loss (declared weak
     * convexity 0); otherwise the paper's setting is used.
     */
    static boolean usesPracticalRule(Preset preset, double declaredRho) {
        return preset == Preset.PRACTICAL && declaredRho == 0;
    }

    /**
     * The practical preset's ρ for a convex loss: C/(D·n). With one round the proximal term 2ρψ(w) is a
     * ridge penalty towards the origin; C/(D·n) keeps it below the data's own curvature at every n (a
     * larger ρ such as C/(30 D) shrank the Adult model to the majority class).
     *
     * @param lipschitz C
     * @param radius D
     * @param n the public dataset size
     */
    static double practicalConvexRho(double lipschitz, double radius, int n) {
        Checks.positive("lipschitz", lipschitz);
        Checks.positive("radius", radius);
        Checks.atLeastOne("n", n);
        return lipschitz / (radius * n);
    }

    private RunParameters parameters(ProblemShape shape, PgmdSchedule s) {
        LocalizedMirrorDescent.PhasePlan ph = s.phase();
        return RunParameters.builder()
                .put(Param.DATASET_SIZE, shape.size())
                .put(Param.DIMENSION, shape.dimension())
                .put(Param.LP_NORM, config.p)
                .put(Param.WEAK_CONVEXITY, s.rho())
                .put(Param.LIPSCHITZ, s.lipschitz())
                .put(Param.RADIUS, s.radius())
                .put(Param.ROUNDS, s.rounds())
                .put(Param.PHASES, s.phases())
                .put(Param.STEPS, s.parts() * ph.steps())
                .put(Param.BATCH_SIZE, (double) ph.batch())
                .put(Param.SAMPLING_RATE, ph.samplingProbability())
                .put(Param.NORMALIZER, (double) ph.batch())
                .put(Param.CLIP_NORM, s.lipschitz())
                .put(Param.NOISE_MULTIPLIER, ph.noiseMultiplier())
                .put(Param.SIGMA, ph.noiseMultiplier() * s.lipschitz())
                .put(Param.OUTPUT, s.lastIterate() ? "last" : "random")
                .put(Param.PRESET, s.lastIterate() ? Preset.PRACTICAL.key() : Preset.PAPER.key())
                .put(Param.ACCOUNTANT, config.accountant().name())
                .build();
    }

    @Override
    public OptimizationResult run(Problem problem, RunPlan plan, UniformRandomProvider rng) {
        PgmdSchedule s = plan.detail(PgmdSchedule.class);
        PrivateRun run = PrivateRun.start(plan, problem, rng, options());
        int n = plan.shape().size();
        int[][] parts = Partitions.independentLabels(n, s.parts(), run.rng());
        // practical: t* = T_out + 1 is the last iterate (no draw); paper: uniform on 1..T_out
        int tStar = s.lastIterate() ? s.rounds() + 1 : run.rng().nextInt(s.rounds()) + 1;
        DMatrixRMaj w;
        if (config.initialPoint != null) {
            w = config.initialPoint.copy();
            s.map().projectCentredBall(s.radius(), w);
        } else if (s.lastIterate()) {
            w = new DMatrixRMaj(s.map().dimension(), 1);
        } else {
            w = randomStart(s.map(), s.radius() / 2, run.rng());
        }
        Trajectory traj = new Trajectory(run.diagnosticsOn() && config.diagnosticIterations > 0
                ? Math.min(config.trajectoryPoints, s.rounds()) : 0, s.rounds());
        DMatrixRMaj out = rounds(run, s, parts, w, tStar, traj);
        if (run.diagnosticsOn()) {
            diagnose(run, s, out, tStar, traj);
        }
        return run.finish(out);
    }

    /** The T_out proximal rounds; returns w_{t*}. */
    private static DMatrixRMaj rounds(PrivateRun run, PgmdSchedule s, int[][] parts, DMatrixRMaj w1, int tStar,
            Trajectory traj) {
        Problem problem = run.problem();
        DMatrixRMaj w = w1;
        DMatrixRMaj out = tStar == 1 ? w.copy() : null;
        traj.offer(1, w);
        LocalizedMirrorDescent asc = new LocalizedMirrorDescent(s.map());
        double r0 = s.localizationRadius();
        long evaluations = 0;
        try (PrivateRun.Parallel parallel = run.parallel()) {
            for (int t = 1; t <= s.rounds(); t++) {
                LocalizedMirrorDescent.Objective obj = new LocalizedMirrorDescent.Objective(problem.data(),
                        problem.loss(), s.lipschitz(), w, 2 * s.rho(), s.rho(), r0);
                LocalizedMirrorDescent.Result res = asc.run(run, parallel, obj, parts, (t - 1) * s.phases(),
                        s.phases(), s.phase());
                w = res.anchor();
                evaluations += res.evaluations();
                s.map().projectCentredBall(s.radius(), w);
                if (t + 1 == tStar) {
                    out = w.copy();
                }
                traj.offer(t + 1, w);
            }
        }
        run.diagnose(Diagnostic.GRADIENT_EVALUATIONS, evaluations);
        return out;
    }

    /** Non-private diagnostics of the output (and of the trajectory when asked for). */
    private void diagnose(PrivateRun run, PgmdSchedule s, DMatrixRMaj out, int tStar, Trajectory traj) {
        Problem problem = run.problem();
        run.diagnose(Diagnostic.TRAIN_LOSS, problem.empiricalRisk(out));
        if (!s.lastIterate()) {
            run.diagnose(Diagnostic.OUTPUT_INDEX, tStar);
        }
        if (config.diagnosticIterations > 0) {
            ProximalStationarity.Result st = ProximalStationarity.compute(problem, s.map(), s.rho(), out,
                    config.diagnosticIterations);
            run.diagnose(Diagnostic.NEAR_STATIONARITY, st.stationarity());
            run.diagnose(Diagnostic.PROX_GAP, st.gap());
        }
        if (traj.size() > 0) {
            double sum = 0;
            for (DMatrixRMaj v : traj.points()) {
                sum += ProximalStationarity.compute(problem, s.map(), s.rho(), v, config.diagnosticIterations)
                        .stationarity();
            }
            run.diagnose(Diagnostic.EXPECTED_NEAR_STATIONARITY, sum / traj.size());
        }
    }

    /**
     * A uniformly random direction scaled to ‖w_1‖_p̃ = norm: d standard normals (Commons RNG ziggurat over
     * the run's rng, data-independent).
     */
    private static DMatrixRMaj randomStart(MirrorMap map, double norm, UniformRandomProvider rng) {
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
        int d = map.dimension();
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

    @Override
    public String toString() {
        return "ProximallyGuidedMirrorDescent(p=" + config.p + ", rounds=" + config.rounds
                + ", innerPhases=" + config.innerPhases + ", rho=" + config.rho + ", preset=" + config.preset().key()
                + ", accountant=" + config.accountant().name() + ")";
    }

    /**
     * Builder; every setter validates. {@code preset}: {@link Preset#PRACTICAL} (default): for a convex
     * loss, the origin as start, one round of one phase and the last iterate (see the class comment);
     * {@link Preset#PAPER}: the theorem's random start, T_out and K, and the uniformly random output round.
     * {@code accountant}: for calibration and the report (default RDP; must be add/remove-one).
     */
    public static final class Builder extends PresetBuilder<Builder> {
        private double p = 2;
        private int rounds = 0;
        private int innerPhases = 0;
        private double rho = Double.NaN;
        private int diagnosticIterations = 300;
        private int trajectoryPoints = 0;
        private DMatrixRMaj initialPoint;

        private Builder() {
            super(new RdpAccountant(), NeighboringRelation.ADD_OR_REMOVE_ONE, "pg-mirror-descent");
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

        /**
         * The weak-convexity ρ &gt; 0 to use (default: the loss's declared value; must not be smaller; for a
         * convex loss, declared ρ = 0, the default is C/(D·n) under the practical preset and C/(30·D) under
         * the paper preset, see {@link #CONVEX_RHO_DIVISOR}).
         */
        public Builder rho(double r) {
            this.rho = Checks.positive("rho", r);
            return this;
        }

        /**
         * Iterations of the non-private near-stationarity diagnostic, computed only with
         * {@code diagnostics(true)} (0 disables it; default 300).
         */
        public Builder diagnosticIterations(int k) {
            if (k < 0) {
                throw Checks.fail("diagnosticIterations", "non-negative", k);
            }
            this.diagnosticIterations = k;
            return this;
        }

        /**
         * With {@code diagnostics(true)}, also evaluate the non-private near-stationarity at k evenly
         * spaced rounds and report their mean as {@code expected_near_stationarity}: a low-variance
         * estimate of E_{t*}[stationarity], the quantity Theorem 20 bounds (default 0: off; also off when
         * diagnosticIterations is 0). Costs k diagnostic solves.
         */
        public Builder trajectoryPoints(int k) {
            if (k < 0) {
                throw Checks.fail("trajectoryPoints", "non-negative", k);
            }
            this.trajectoryPoints = k;
            return this;
        }

        /** Builds the immutable optimizer. */
        public ProximallyGuidedMirrorDescent build() {
            return new ProximallyGuidedMirrorDescent(this);
        }
    }
}
