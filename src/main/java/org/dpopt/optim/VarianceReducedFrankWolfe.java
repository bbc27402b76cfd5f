package org.dpopt.optim;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.AdvancedCompositionAccountant;
import org.dpopt.accounting.Calibration;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.DpEvents;
import org.dpopt.accounting.EpsilonDeltaEvent;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PrivacyLedger;
import org.dpopt.accounting.PrivacyReport;
import org.dpopt.accounting.SelfComposedEvent;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.Polytope;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Problem;
import org.dpopt.noise.ReportNoisyMax;
import org.ejml.data.DMatrixRMaj;

/**
 * Variance-reduced private Frank–Wolfe over a polytope, one pass over the data (Bassily, Guzmán, Menart,
 * "Differentially Private Stochastic Optimization: New Results in Convex and Non-Convex Settings",
 * NeurIPS 2021, arXiv:2107.05585, Algorithm 4 / Theorems 10–11, as reconstructed in ALGORITHMS.md §4.4;
 * recursive estimator of Zhang, Shen, Mokhtari et al. / Hassani et al. (SPIDER/SARAH type)).
 *
 * <p>R rounds of m steps with a constant step μ. Round r: anchor {@code d_0 = (1/b₀) Σ_{A_r} ∇f(w_0; z)};
 * step t: {@code j_t = argmin_j ⟨v_j, d_t⟩ + Lap(s)} (report-noisy-max), {@code w_{t+1} = w_t + μ(v_{j_t} − w_t)},
 * then on a fresh batch B_{t+1} of size b: {@code d_{t+1} = d_t + (1/b) Σ_{B_{t+1}} [∇f(w_{t+1}; z) − ∇f(w_t; z)]}.
 * Every batch is a fresh segment of a random, data-independent read order (shuffled blocks of up to 64 rows,
 * {@link Builder#shuffleBlock}): each record is used in at most one batch. Output: an iterate w_{r,t}
 * drawn uniformly (index fixed before the run).
 *
 * <p>Assumptions: a smooth GLL (|φ′| ≤ L₀, |φ″| ≤ β₀, possibly non-convex), rows ‖x‖₂ ≤ R; so f is
 * L = L₀R-Lipschitz and β = β₀R²-smooth in ℓ2.
 *
 * <p>Privacy (replace-one; derivation in theory-notes/frank-wolfe.md §3): a record in A_r moves every
 * score ⟨v, d_t⟩ of round r by ≤ Δ₀ = 2L·max‖v‖₂/b₀; a record in B_t moves the scores of steps ≥ t by
 * ≤ 2β‖w_t − w_{t−1}‖₂·max‖v‖₂/b ≤ 2βμ·diam₂(W)·max‖v‖₂/b, and b = ⌈b₀βμ·diam₂/L⌉ makes this ≤ Δ₀.
 * Every RNM uses b = 2Δ₀/ε0 (ε0-DP w.r.t. any record of its round); a record influences the m calls of
 * its round only, and iterates are post-processing of RNM outputs, so the run is the parallel
 * composition over rounds of m adaptive ε0-DP steps: ParallelComposed(R × [m × (ε0, 0)]). ε0 is the
 * largest value the accountant certifies for m steps within (ε, δ).
 *
 * <p>Default schedule (§3 of the note): R = ⌈(nε)^{1/3}⌉, μ = 1/R, m = ⌈L/(βμ·diam₂)⌉ (so the difference
 * batches of a round together are about as large as its anchor), b₀ the largest size that fits the
 * budget of n records.
 */
public final class VarianceReducedFrankWolfe extends LegacyOptimizer {
    private final OnePassFrankWolfe.Settings<Polytope> cfg;

    private VarianceReducedFrankWolfe(Builder b) {
        this.cfg = b.settings();
    }

    /** A builder with the documented defaults. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public String name() {
        return "vr-frank-wolfe";
    }

    @Override
    public NeighboringRelation relation() {
        return NeighboringRelation.REPLACE_ONE;
    }

    /** The schedule and noise, from public constants only. */
    record Plan(Polytope set, GeneralizedLinearLoss loss, int rounds, int steps, double mu, int anchor, int batch,
            double sensitivity, double eps0, ReportNoisyMax rnm) {
        long records() {
            return (long) rounds * (anchor + (long) (steps - 1) * batch);
        }
    }

    Plan plan(Problem problem, PrivacyBudget budget) {
        Checks.notNull("budget", budget);
        GeneralizedLinearLoss loss = FrankWolfeSupport.requireGll(problem, name());
        Polytope set = FrankWolfeSupport.resolvePolytope(
                cfg.domainFor(problem.dimension()), problem, name());
        OnePassFrankWolfe.requireExactSmoothLoss(loss, cfg.accountant(), name());
        OnePassFrankWolfe.Schedule s = OnePassFrankWolfe.schedule(cfg, problem, loss, budget.epsilon(),
                set.diameter(), 1e-300);
        double delta = 2 * s.lipschitz() * set.maxVertexNorm2() / s.anchor();
        int steps = s.steps();
        double z = Calibration.noiseMultiplier(cfg.accountant(), zz -> roundEvent(1 / zz, steps), budget.epsilon(),
                budget.delta(), 1e-6);
        double eps0 = 1 / z;
        return new Plan(set, loss, s.rounds(), steps, s.mu(), s.anchor(), s.batch(), delta, eps0,
                new ReportNoisyMax(delta, eps0, false, relation()));
    }

    /** The largest b₀ with R(b₀ + (m − 1)⌈b₀·ratio⌉) ≤ n (0 if none). */
    static int largestAnchor(int n, int r, int m, double ratio) {
        long lo = 0;
        long hi = n;
        while (lo < hi) {
            long mid = (lo + hi + 1) / 2;
            long b = Math.max(1, (long) Math.ceil(mid * ratio));
            if ((double) r * (mid + (double) (m - 1) * b) <= n) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return (int) lo;
    }

    private static DpEvent roundEvent(double eps0, int m) {
        return DpEvents.normalize(new SelfComposedEvent(new EpsilonDeltaEvent(eps0, 0), m));
    }

    @Override
    public DpEvent privacyEvent(Problem problem, PrivacyBudget budget) {
        Plan p = plan(problem, budget);
        return OnePassFrankWolfe.statement(p.rounds(), roundEvent(p.eps0(), p.steps()));
    }

    /** Chooses the vertex of a step from its exact scores (RNM in production; forced in tests). */
    interface Selector {
        int select(double[] scores, int count);
    }

    @Override
    public OptimizationResult optimize(Problem problem, PrivacyBudget budget, UniformRandomProvider rng) {
        Checks.notNull("rng", rng);
        Plan p = plan(problem, budget);
        ReportNoisyMax rnm = p.rnm();
        return run(problem, budget, p, rng, (s, c) -> rnm.argmin(s, c, rng), null);
    }

    /** The run, with a vertex selector and an optional visitor told every record index as it is read. */
    OptimizationResult run(Problem problem, PrivacyBudget budget, Plan p, UniformRandomProvider rng, Selector selector,
            IntConsumer visitor) {
        Dataset data = problem.data();
        GeneralizedLinearLoss loss = p.loss();
        Polytope set = p.set();
        int n = data.size();
        int d = data.dimension();
        int nv = set.vertexCount();
        int block = cfg.block(p.batch());
        int[] perm = FrankWolfeSupport.readOrder(n, block, cfg.shuffle(), rng);
        long total = (long) p.rounds() * p.steps();
        long chosen = rng.nextLong(total);
        DMatrixRMaj w = new DMatrixRMaj(d, 1);
        set.vertex(0, w);
        DMatrixRMaj out = new DMatrixRMaj(d, 1);
        DMatrixRMaj est = new DMatrixRMaj(d, 1);
        double[] scores = new double[nv];
        int pos = 0;
        long evals = 0;
        double mu = p.mu();
        DpEvent stepEvent = p.rnm().event();
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
                set.scores(est, scores);
                int j = selector.select(scores, nv);
                roundLedger.record(stepEvent);
                boolean more = t + 1 < p.steps();
                int start = pos;
                if (!more) {
                    set.moveToward(j, mu, w);
                    continue;
                }
                double inv = 1.0 / p.batch();
                for (int a = 0; a < p.batch(); a++) {
                    int i = perm[start + a];
                    if (visitor != null) {
                        visitor.accept(i);
                    }
                    double uOld = data.dot(i, w);
                    double uNew = (1 - mu) * uOld + mu * set.vertexDotRow(j, data, i);
                    double y = data.label(i);
                    data.addScaledRow(i, (loss.derivative(uNew, y) - loss.derivative(uOld, y)) * inv, est);
                }
                pos += p.batch();
                evals += 2L * p.batch();
                set.moveToward(j, mu, w);
            }
            roundEvents.add(roundLedger.build());
        }
        DpEvent recorded = OnePassFrankWolfe.recordRounds(roundEvents);
        PrivacyReport report = FrankWolfeSupport.reportWithinBudget(cfg.accountant(), recorded, budget);
        Map<String, Double> params = OnePassFrankWolfe.scheduleParameters(p.rounds(), p.steps(), mu, p.anchor(),
                p.batch(), pos, cfg.shuffle(), block);
        params.put("epsilon_per_step", p.eps0());
        params.put("score_sensitivity", p.sensitivity());
        params.put("laplace_scale", p.rnm().scale());
        params.put("output_index", (double) chosen);
        Map<String, Double> diag = FrankWolfeSupport.riskDiagnostics(cfg.diagnostics(), problem, cfg.population(), out);
        if (cfg.diagnostics()) {
            diag.put("frank_wolfe_gap", FrankWolfeSupport.frankWolfeGap(problem, set, out));
        }
        return result(problem, budget, out, report, recorded, total, evals, params, diag);
    }

    /** Builder; every setter validates (shared setters in {@link OnePassFrankWolfeBuilder}). */
    public static final class Builder extends OnePassFrankWolfeBuilder<Polytope, Builder> {
        private Builder() {
            super(new AdvancedCompositionAccountant(NeighboringRelation.REPLACE_ONE));
        }

        /** Builds the immutable optimizer. */
        public VarianceReducedFrankWolfe build() {
            return new VarianceReducedFrankWolfe(this);
        }
    }
}
