package org.dpopt.optim;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.Calibration;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.DpEvents;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PrivacyLedger;
import org.dpopt.accounting.PrivacyReport;
import org.dpopt.accounting.RdpAccountant;
import org.dpopt.accounting.SelfComposedEvent;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.LpBall;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Problem;
import org.dpopt.noise.GaussianNoise;
import org.ejml.data.DMatrixRMaj;

/**
 * Noisy stochastic Frank–Wolfe over an ℓp ball, 1 &lt; p ≤ 2 (Bassily, Guzmán, Menart, "Differentially
 * Private Stochastic Optimization: New Results in Convex and Non-Convex Settings", NeurIPS 2021,
 * arXiv:2107.05585, Algorithm 5 / Theorems 13–14, as reconstructed in ALGORITHMS.md §4.5).
 *
 * <p>The round structure and recursive estimator of {@link VarianceReducedFrankWolfe} (one pass, fresh
 * disjoint batches, anchor b₀ and difference batches b), but the estimator itself is privatized:
 * {@code d̃_t = d_t + N(0, σ²I)} and the exact LMO of the ball gives
 * {@code v_t = −r·sign(d̃)|d̃|^{q−1}/‖d̃‖_q^{q−1}}; {@code w_{t+1} = w_t + μ(v_t − w_t)}. Output: an iterate
 * drawn uniformly (index fixed before the run). For p close to 1 use {@link LpBall#effective} (p̃ trick).
 *
 * <p>Assumptions: a smooth GLL (|φ′| ≤ L₀, |φ″| ≤ β₀; non-convex allowed), rows ‖x‖₂ ≤ R, so f is
 * L = L₀R-Lipschitz and β = β₀R²-smooth in ℓ2; since p ≤ 2 the ℓ2 diameter of the ball is 2r.
 *
 * <p>Privacy (replace-one; theory-notes/frank-wolfe.md §4): a record in the anchor moves every d_t of its
 * round by ≤ Δ = 2L/b₀ in ℓ2, a record in a difference batch by ≤ 2βμ·2r/b ≤ Δ (b = ⌈b₀βμ·2r/L⌉).
 * Each release d̃_t is the Gaussian mechanism with noise multiplier z = σ/Δ given the past releases,
 * a record influences only the m releases of its round, and iterates are post-processing: the run
 * is ParallelComposed(R × [m × Gaussian(z)]), z calibrated by the accountant (default RDP, replace-one).
 */
public final class NoisyStochasticFrankWolfe extends LegacyOptimizer {
    private final OnePassFrankWolfe.Settings<LpBall> cfg;

    private NoisyStochasticFrankWolfe(Builder b) {
        this.cfg = b.settings();
    }

    /** A builder with the documented defaults. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public String name() {
        return "noisy-sfw";
    }

    @Override
    public NeighboringRelation relation() {
        return NeighboringRelation.REPLACE_ONE;
    }

    /** The schedule and noise, from public constants only. */
    record Plan(LpBall ball, GeneralizedLinearLoss loss, int rounds, int steps, double mu, int anchor, int batch,
            double sensitivity, double z) {
        long records() {
            return (long) rounds * (anchor + (long) (steps - 1) * batch);
        }
    }

    Plan plan(Problem problem, PrivacyBudget budget) {
        Checks.notNull("budget", budget);
        GeneralizedLinearLoss loss = FrankWolfeSupport.requireGll(problem, name());
        LpBall ball = FrankWolfeSupport.resolveLpBall(
                cfg.domainFor(problem.dimension()), problem, name());
        OnePassFrankWolfe.requireExactSmoothLoss(loss, cfg.accountant(), name());
        // the ball's diameter 2r is positive, so no floor is needed in the default m
        OnePassFrankWolfe.Schedule s = OnePassFrankWolfe.schedule(cfg, problem, loss, budget.epsilon(),
                ball.diameter(problem.dimension()), 0.0);
        double delta = 2 * s.lipschitz() / s.anchor();
        int m = s.steps();
        double z = Calibration.noiseMultiplier(cfg.accountant(), zz -> roundEvent(zz, m), budget.epsilon(), budget.delta(),
                1e-6);
        return new Plan(ball, loss, s.rounds(), m, s.mu(), s.anchor(), s.batch(), delta, z);
    }

    private static DpEvent roundEvent(double z, int m) {
        return DpEvents.normalize(new SelfComposedEvent(new GaussianEvent(z), m));
    }

    @Override
    public DpEvent privacyEvent(Problem problem, PrivacyBudget budget) {
        Plan p = plan(problem, budget);
        return OnePassFrankWolfe.statement(p.rounds(), roundEvent(p.z(), p.steps()));
    }

    @Override
    public OptimizationResult optimize(Problem problem, PrivacyBudget budget, UniformRandomProvider rng) {
        Checks.notNull("rng", rng);
        return run(problem, budget, plan(problem, budget), rng, null, null);
    }

    /** Turns the exact estimator d_t into the chosen point v_t (production: noise + LMO; forced in tests). */
    interface Release {
        void release(DMatrixRMaj estimate, DMatrixRMaj v);
    }

    /**
     * The run. {@code release}, if non-null, replaces the noisy LMO (test hook: it sees every exact d_t),
     * and {@code visitor} is told every record index as it is read.
     */
    OptimizationResult run(Problem problem, PrivacyBudget budget, Plan p, UniformRandomProvider rng,
            Release release, IntConsumer visitor) {
        Dataset data = problem.data();
        GeneralizedLinearLoss loss = p.loss();
        LpBall ball = p.ball();
        int n = data.size();
        int d = data.dimension();
        int block = cfg.block(p.batch());
        int[] perm = FrankWolfeSupport.readOrder(n, block, cfg.shuffle(), rng);
        long total = (long) p.rounds() * p.steps();
        long chosen = rng.nextLong(total);
        GaussianNoise noise = GaussianNoise.of(rng);
        double sigma = p.z() * p.sensitivity();
        DMatrixRMaj w = new DMatrixRMaj(d, 1);
        DMatrixRMaj next = new DMatrixRMaj(d, 1);
        DMatrixRMaj out = new DMatrixRMaj(d, 1);
        DMatrixRMaj est = new DMatrixRMaj(d, 1);
        DMatrixRMaj v = new DMatrixRMaj(d, 1);
        int pos = 0;
        long evals = 0;
        double mu = p.mu();
        DpEvent stepEvent = new GaussianEvent(p.z());
        List<DpEvent> roundEvents = new ArrayList<>();
        long k = 0;
        for (int r = 0; r < p.rounds(); r++) {
            PrivacyLedger roundLedger = new PrivacyLedger();
            pos = OnePassFrankWolfe.anchorGradient(data, loss, perm, pos, p.anchor(), w, est, visitor);
            evals += p.anchor();
            for (int t = 0; t < p.steps(); t++, k++) {
                if (k == chosen) {
                    System.arraycopy(w.data, 0, out.data, 0, d);
                }
                if (release != null) {
                    release.release(est, v);
                } else {
                    System.arraycopy(est.data, 0, v.data, 0, d);
                    noise.addTo(v, sigma);
                    ball.lmo(v, v);
                }
                roundLedger.record(stepEvent);
                for (int c = 0; c < d; c++) {
                    next.data[c] = (1 - mu) * w.data[c] + mu * v.data[c];
                }
                if (t + 1 < p.steps()) {
                    double inv = 1.0 / p.batch();
                    for (int a = 0; a < p.batch(); a++) {
                        int i = perm[pos++];
                        if (visitor != null) {
                            visitor.accept(i);
                        }
                        double y = data.label(i);
                        double diff = loss.derivative(data.dot(i, next), y) - loss.derivative(data.dot(i, w), y);
                        data.addScaledRow(i, diff * inv, est);
                    }
                    evals += 2L * p.batch();
                }
                DMatrixRMaj tmp = w;
                w = next;
                next = tmp;
            }
            roundEvents.add(roundLedger.build());
        }
        DpEvent recorded = OnePassFrankWolfe.recordRounds(roundEvents);
        PrivacyReport report = FrankWolfeSupport.reportWithinBudget(cfg.accountant(), recorded, budget);
        Map<String, Double> params = OnePassFrankWolfe.scheduleParameters(p.rounds(), p.steps(), mu, p.anchor(),
                p.batch(), pos, cfg.shuffle(), block);
        params.put("noise_multiplier", p.z());
        params.put("sigma", sigma);
        params.put("l2_sensitivity", p.sensitivity());
        params.put("p", ball.p());
        params.put("output_index", (double) chosen);
        Map<String, Double> diag = FrankWolfeSupport.riskDiagnostics(cfg.diagnostics(), problem, cfg.population(), out);
        if (cfg.diagnostics()) {
            diag.put("frank_wolfe_gap", FrankWolfeSupport.frankWolfeGap(problem, ball, out));
        }
        return result(problem, budget, out, report, recorded, total, evals, params, diag);
    }

    /** Builder; every setter validates (shared setters in {@link OnePassFrankWolfeBuilder}). */
    public static final class Builder extends OnePassFrankWolfeBuilder<LpBall, Builder> {
        private Builder() {
            super(new RdpAccountant(RdpAccountant.DEFAULT_ORDERS, RdpAccountant.Conversion.IMPROVED,
                    NeighboringRelation.REPLACE_ONE));
        }

        /** Builds the immutable optimizer. */
        public NoisyStochasticFrankWolfe build() {
            return new NoisyStochasticFrankWolfe(this);
        }
    }
}
