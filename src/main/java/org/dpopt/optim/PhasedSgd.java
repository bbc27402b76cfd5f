package org.dpopt.optim;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.BasicCompositionAccountant;
import org.dpopt.accounting.Calibration;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.ParallelComposedEvent;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.accounting.PrivacyLedger;
import org.dpopt.accounting.PrivacyReport;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.linalg.Checks;
import org.dpopt.linalg.Vectors;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Loss;
import org.dpopt.loss.Problem;
import org.dpopt.noise.GaussianNoise;
import org.dpopt.oracle.GllBisectionProx;
import org.dpopt.sampling.RecordOrder;
import org.ejml.data.DMatrixRMaj;

/**
 * Phased-SGD (iterative localization): k = ⌈log₂ n⌉ phases on disjoint chunks, one pass of projected
 * SGD per phase with geometrically shrinking steps, the averaged iterate released with Gaussian noise.
 *
 * <pre>
 *   η = (D/L)·min(4/√n, ε/√(r ln(1/δ))),  n_i = max(1, ⌊n/2^i⌋),  η_i = η/4^i,   i = 1..k
 *   phase i:  u_0 = w_{i−1};  u_j = Π_W(u_{j−1} − η_i ĝ(u_{j−1}; z_j)),  j = 1..n_i  (z_j ∈ chunk i)
 *             w_i = (1/n_i) Σ_j u_j + N(0, σ_i² I),   σ_i = z·Δ_i,   Δ_i = 2η_i (L + e·n_i)
 *   output w_k
 * </pre>
 *
 * ĝ is the exact gradient for a smooth loss (e = 0), or, for a non-smooth convex GLL, the gradient of
 * the Moreau envelope with smoothness β_W = min((L/D)·min(√n, εn/√(r ln(1/δ))), 8/η) from
 * {@link GllBisectionProx} with per-gradient error at most e = R·L₀/2^K (K from the accuracy α = L₀/n).
 * One-pass SGD with η_i ≤ 2/β is non-expansive, so changing one record moves every iterate and the
 * average by at most 2Lη_i; inexact gradients add 2η_i·e per later step, hence Δ_i (ALGORITHMS.md §4.2
 * "sound noise"). The step-size condition η_1 = η/4 ≤ 2/β (i.e. β ≤ 8/η) is checked and a violating
 * configuration refused.
 *
 * <p>Constrained (W with finite diameter D: Bassily–Guzmán–Menart Thm 6) or unconstrained (W = ℝ^d,
 * no projection, D = a declared bound on ‖w*‖ (default √d), r = a declared rank bound defaulting to d: the
 * Theorem 7 variant; privacy is the same argument without projection — see
 * {@code theory-notes/phased-sgd.md §4}).
 *
 * <p>Privacy: REPLACE_ONE. Records are permuted once with the run's RNG (blocks of 16 adjacent rows by
 * default, {@link RecordOrder}) and cut into consecutive chunks, so the partition is data-independent and the phases compose in
 * parallel: the statement is {@code Parallel[Gaussian(z) × k]}, each part (ε, δ)-DP. The noise multiplier
 * z is calibrated by the accountant (default: exact Balle–Wang curve via
 * {@link BasicCompositionAccountant}, valid for every ε). The paper noise σ_i = 4Lη_i√(ln(1/δ))/ε (scaled by
 * Δ_i/(2Lη_i)) is available as {@link Noise#PAPER} and refused if the accountant does not certify it.
 *
 * <p>References: Feldman, Koren, Talwar, "Private Stochastic Convex Optimization: Optimal Rates in
 * Linear Time", STOC 2020, arXiv:2005.04763 (Phased-SGD); Bassily, Guzmán, Menart, "Differentially
 * Private Stochastic Optimization: New Results in Convex and Non-Convex Settings", NeurIPS 2021,
 * arXiv:2107.05585 (Algorithm 2, Thms 6–7). Rate: O(LD(1/√n + √(d ln(1/δ))/(εn))) in O(n log n) scalar
 * work for GLLs.
 */
public final class PhasedSgd extends LegacyOptimizer {

    /** Which gradient oracle drives the phases. */
    public enum OracleChoice {
        /** Exact gradients if the loss is smooth enough for the step-size condition, else bisection smoothing. */
        AUTO,
        /** Exact gradients; refused for non-smooth losses or when β &gt; 8/η. */
        EXACT,
        /** Moreau-smoothed GLL through {@link GllBisectionProx}. */
        BISECTION
    }

    /** How σ_i is chosen. */
    public enum Noise {
        /** z calibrated by the accountant to the budget (default). */
        CALIBRATED,
        /** FKT20's constant z = 2√(ln(1/δ))/ε, kept only if the accountant certifies the budget. */
        PAPER
    }

    private final OracleChoice oracle;
    private final Noise noise;
    private final double baseStepSize; // NaN: theorem
    private final double comparatorRadius;
    private final int rankBound; // 0: d
    private final double bisectionAccuracy; // NaN: L0/n
    private final RecordOrder order;
    private final PrivacyAccountant accountant;

    private PhasedSgd(Builder b) {
        this.oracle = b.oracle;
        this.noise = b.noise;
        this.baseStepSize = b.baseStepSize;
        this.comparatorRadius = b.comparatorRadius;
        this.rankBound = b.rankBound;
        this.bisectionAccuracy = b.bisectionAccuracy;
        this.order = b.order;
        this.accountant = b.accountant;
    }

    /** A builder with the theorem defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** Theorem defaults: AUTO oracle, calibrated noise, comparator radius √d when unconstrained. */
    public static PhasedSgd defaults() {
        return builder().build();
    }

    @Override
    public String name() {
        return "phased-sgd";
    }

    @Override
    public NeighboringRelation relation() {
        return NeighboringRelation.REPLACE_ONE;
    }

    /**
     * Everything a run uses, from public quantities only.
     *
     * @param phaseSizes n_i
     * @param stepSizes η_i
     * @param sensitivities Δ_i
     * @param sigmas σ_i
     * @param noiseMultiplier z
     * @param eta η
     * @param diameter D (or the comparator radius when unconstrained)
     * @param constrained whether W is bounded
     * @param lipschitz L
     * @param loss the loss the phases differentiate (the smoothed one for BISECTION)
     * @param prox the bisection prox, or null for exact gradients
     * @param smoothness β of the differentiated loss in w
     * @param gradientError e
     */
    record Plan(int[] phaseSizes, double[] stepSizes, double[] sensitivities, double[] sigmas, double noiseMultiplier,
            double eta, double diameter, boolean constrained, double lipschitz, Loss loss, GllBisectionProx prox,
            double smoothness, double gradientError) {
        int phases() {
            return phaseSizes.length;
        }
    }

    /** k = ⌈log₂ n⌉ for n ≥ 2. */
    static int phaseCount(int n) {
        return 32 - Integer.numberOfLeadingZeros(n - 1);
    }

    Plan plan(Problem problem, PrivacyBudget budget) {
        Checks.notNull("problem", problem);
        Checks.notNull("budget", budget);
        if (accountant.relation() != NeighboringRelation.REPLACE_ONE) {
            throw Checks.fail("accountant relation", "REPLACE_ONE for phased-sgd", accountant.relation());
        }
        int n = problem.size();
        if (n < 2) {
            throw Checks.fail("dataset size n", "at least 2 for phased-sgd", n);
        }
        int d = problem.dimension();
        double eps = budget.epsilon();
        double logInvDelta = Math.log(1 / budget.delta());
        double lip = problem.lipschitz();
        if (!(lip > 0) || Double.isInfinite(lip)) {
            throw Checks.fail("Lipschitz constant L", "finite and positive", lip);
        }
        ConvexSet domain = problem.domain();
        boolean constrained;
        double diam;
        if (domain.isWholeSpace()) {
            constrained = false;
            diam = Double.isNaN(comparatorRadius) ? Math.sqrt(d) : comparatorRadius;
        } else {
            constrained = true;
            diam = domain.diameter(d);
            if (!Double.isFinite(diam)) {
                throw Checks.fail("diameter of the constraint set", "finite (or use the unconstrained set)", diam);
            }
        }
        int r = rankBound > 0 ? Math.min(rankBound, d) : d;
        double statTerm = Math.min(4 / Math.sqrt(n), eps / Math.sqrt(r * logInvDelta));
        double eta = Double.isNaN(baseStepSize) ? (diam / lip) * statTerm : baseStepSize;
        double betaLimit = 8 / eta;

        Loss loss = problem.loss();
        if (loss.convexity() != Loss.Convexity.CONVEX) {
            throw Checks.fail("convexity of " + loss.name(), "CONVEX for phased-sgd (its sensitivity bound rests on "
                    + "non-expansive gradient steps)", loss.convexity());
        }
        double beta = problem.smoothness();
        boolean smoothOk = Double.isFinite(beta) && beta <= betaLimit;
        boolean useBisection;
        switch (oracle) {
            case EXACT:
                if (!smoothOk) {
                    throw Checks.fail("smoothness beta of " + loss.name(), "at most 8/eta = " + betaLimit
                            + " (step-size condition eta_1 <= 2/beta) for exact-gradient phased-sgd", beta);
                }
                useBisection = false;
                break;
            case BISECTION:
                useBisection = true;
                break;
            default:
                useBisection = !smoothOk;
        }
        GllBisectionProx prox = null;
        double gradErr = 0;
        if (useBisection) {
            if (!(loss instanceof GeneralizedLinearLoss gll) || loss instanceof GllBisectionProx) {
                throw Checks.fail("loss " + loss.name(), "a convex generalized linear loss (or smooth with beta <= 8/eta = "
                        + betaLimit + ")", loss.getClass().getSimpleName());
            }
            double rows = problem.data().rowNormBound();
            double betaW = Math.min((lip / diam) * Math.min(Math.sqrt(n), eps * n / Math.sqrt(r * logInvDelta)),
                    betaLimit);
            double l0 = gll.scalarLipschitz();
            double alpha = Double.isNaN(bisectionAccuracy) ? l0 / n : bisectionAccuracy;
            prox = GllBisectionProx.of(gll, betaW / (rows * rows), alpha);
            loss = prox;
            beta = prox.smoothness(rows);
            gradErr = prox.derivativeErrorBound() * rows;
            if (!(beta <= betaLimit * (1 + 1e-12))) {
                throw new IllegalStateException("smoothed loss has beta " + beta + " above 8/eta = " + betaLimit);
            }
        }

        int k = phaseCount(n);
        int[] sizes = new int[k];
        double[] steps = new double[k];
        double[] sens = new double[k];
        for (int i = 1; i <= k; i++) {
            sizes[i - 1] = Math.max(1, n >> i);
            steps[i - 1] = eta / Math.pow(4, i);
            sens[i - 1] = 2 * steps[i - 1] * (lip + gradErr * sizes[i - 1]);
        }
        double z;
        if (noise == Noise.PAPER) {
            z = 2 * Math.sqrt(logInvDelta) / eps;
            double spent = accountant.epsilon(event(k, z), budget.delta());
            if (spent > eps * (1 + 1e-9)) {
                throw Checks.fail("epsilon certified for the paper noise 2 sqrt(ln(1/delta))/eps",
                        "at most the budget " + eps + " (use calibrated noise)", spent);
            }
        } else {
            z = Calibration.noiseMultiplier(accountant, zz -> event(k, zz), eps, budget.delta());
        }
        double[] sigmas = new double[k];
        for (int i = 0; i < k; i++) {
            sigmas[i] = z * sens[i];
        }
        return new Plan(sizes, steps, sens, sigmas, z, eta, diam, constrained, lip, loss, prox, beta, gradErr);
    }

    /** The record order: a function of n and the RNG only. */
    int[] order(int n, UniformRandomProvider rng) {
        return order.permutation(n, rng);
    }

    private static DpEvent event(int phases, double z) {
        return new ParallelComposedEvent(Collections.nCopies(phases, (DpEvent) new GaussianEvent(z)));
    }

    @Override
    public DpEvent privacyEvent(Problem problem, PrivacyBudget budget) {
        Plan p = plan(problem, budget);
        return event(p.phases(), p.noiseMultiplier());
    }

    @Override
    public OptimizationResult optimize(Problem problem, PrivacyBudget budget, UniformRandomProvider rng) {
        Checks.notNull("rng", rng);
        Plan p = plan(problem, budget);
        Dataset data = problem.data();
        ConvexSet domain = problem.domain();
        int n = data.size();
        int d = data.dimension();
        int[] order = order(n, rng);
        GaussianNoise gauss = GaussianNoise.of(rng);
        PrivacyLedger ledger = new PrivacyLedger();
        List<DpEvent> phaseEvents = new ArrayList<>();
        DMatrixRMaj w = new DMatrixRMaj(d, 1);
        domain.project(w);
        DMatrixRMaj u = new DMatrixRMaj(d, 1);
        DMatrixRMaj avg = new DMatrixRMaj(d, 1);
        DMatrixRMaj tmp = new DMatrixRMaj(d, 1);
        Loss loss = p.loss();
        GllBisectionProx prox = p.prox();
        GeneralizedLinearLoss gll = loss instanceof GeneralizedLinearLoss g ? g : null;
        double lip = p.lipschitz();
        boolean project = p.constrained();
        long[] calls = new long[1];
        long steps = 0;
        int offset = 0;
        for (int ph = 0; ph < p.phases(); ph++) {
            int ni = p.phaseSizes()[ph];
            double eta = p.stepSizes()[ph];
            Vectors.copy(w, u);
            Vectors.zero(avg);
            double[] us = u.data;
            double[] as = avg.data;
            for (int j = 0; j < ni; j++) {
                int i = order[offset + j];
                if (gll != null) {
                    double dot = data.dot(i, u);
                    double c = prox != null ? prox.derivative(dot, data.label(i), calls) : gll.derivative(dot, data.label(i));
                    double norm = Math.abs(c) * data.rowNorm(i);
                    if (norm > lip) {
                        c *= lip / norm;
                    }
                    data.addScaledRow(i, -eta * c, u);
                } else {
                    loss.gradient(u, data, i, tmp);
                    Vectors.clipL2(tmp, lip);
                    Vectors.axpy(-eta, tmp, u);
                }
                if (project) {
                    domain.project(u);
                }
                for (int q = 0; q < d; q++) {
                    as[q] += us[q];
                }
            }
            offset += ni;
            steps += ni;
            Vectors.scale(1.0 / ni, avg);
            gauss.addTo(avg, p.sigmas()[ph]);
            phaseEvents.add(new GaussianEvent(p.noiseMultiplier()));
            Vectors.copy(avg, w);
        }
        ledger.record(new ParallelComposedEvent(phaseEvents));
        DpEvent recorded = ledger.build();
        PrivacyReport report = accountant.report(recorded, budget.delta());
        if (report.epsilon() > budget.epsilon() * (1 + 1e-9)) {
            throw new IllegalStateException("phased-sgd spent epsilon " + report.epsilon() + " above the budget "
                    + budget.epsilon());
        }
        Map<String, Double> params = new HashMap<>();
        params.put("phases", (double) p.phases());
        params.put("eta", p.eta());
        params.put("eta_1", p.stepSizes()[0]);
        params.put("sigma_1", p.sigmas()[0]);
        params.put("sigma_last", p.sigmas()[p.phases() - 1]);
        params.put("noise_multiplier", p.noiseMultiplier());
        params.put("sensitivity_1", p.sensitivities()[0]);
        params.put("diameter", p.diameter());
        params.put("lipschitz", lip);
        params.put("smoothness", p.smoothness());
        params.put("constrained", project ? 1.0 : 0.0);
        if (prox != null) {
            params.put("moreau_beta_scalar", prox.beta());
            params.put("bisection_halvings", (double) prox.halvings());
            params.put("gradient_error_bound", p.gradientError());
            params.put("max_scalar_subgradient_calls", (double) steps * prox.maxSubgradientCalls());
        }
        Map<String, Double> diag = new HashMap<>();
        diag.put("train_loss", problem.empiricalRisk(w));
        if (prox != null) {
            diag.put("scalar_subgradient_calls", (double) calls[0]);
        }
        return result(problem, budget, w, report, recorded, steps, steps, params, diag);
    }

    @Override
    public String toString() {
        return "PhasedSgd(oracle=" + oracle + ", noise=" + noise + ", baseStepSize=" + baseStepSize
                + ", comparatorRadius=" + comparatorRadius + ", rankBound=" + rankBound + ", bisectionAccuracy="
                + bisectionAccuracy + ", order=" + order + ", accountant=" + accountant.name() + ")";
    }

    /** Builder; every setter validates. */
    public static final class Builder {
        private OracleChoice oracle = OracleChoice.AUTO;
        private Noise noise = Noise.CALIBRATED;
        private double baseStepSize = Double.NaN;
        private double comparatorRadius = Double.NaN;
        private int rankBound = 0;
        private double bisectionAccuracy = Double.NaN;
        private RecordOrder order = RecordOrder.BLOCK_SHUFFLE;
        private PrivacyAccountant accountant = new BasicCompositionAccountant(NeighboringRelation.REPLACE_ONE);

        private Builder() {
        }

        /** Gradient oracle (default AUTO). */
        public Builder oracle(OracleChoice o) {
            this.oracle = Checks.notNull("oracle", o);
            return this;
        }

        /** Noise rule (default CALIBRATED). */
        public Builder noise(Noise nz) {
            this.noise = Checks.notNull("noise", nz);
            return this;
        }

        /** Overrides the base step η (public; the step-size condition is still checked). */
        public Builder baseStepSize(double eta) {
            this.baseStepSize = Checks.positive("baseStepSize", Checks.finite("baseStepSize", eta));
            return this;
        }

        /**
         * D for the unconstrained variant: a public bound on ‖w*‖ (default √d, the norm of a weight vector with
         * O(1) entries, which gives O(1) margins on rows of norm ≤ 1 — a data-independent scale heuristic).
         */
        public Builder comparatorRadius(double radius) {
            this.comparatorRadius = Checks.positive("comparatorRadius", Checks.finite("comparatorRadius", radius));
            return this;
        }

        /** r in the step size: a public bound on the rank of the feature distribution (default d). */
        public Builder rankBound(int r) {
            this.rankBound = Checks.atLeastOne("rankBound", r);
            return this;
        }

        /** α of the bisection prox (default L₀/n). */
        public Builder bisectionAccuracy(double alpha) {
            this.bisectionAccuracy = Checks.positive("bisectionAccuracy", alpha);
            return this;
        }

        /** Record order before chunking (default BLOCK_SHUFFLE). */
        public Builder order(RecordOrder o) {
            this.order = Checks.notNull("order", o);
            return this;
        }

        /** Accountant under REPLACE_ONE (default basic composition: exact Gaussian curve per phase). */
        public Builder accountant(PrivacyAccountant a) {
            Checks.notNull("accountant", a);
            if (a.relation() != NeighboringRelation.REPLACE_ONE) {
                throw Checks.fail("accountant relation", "REPLACE_ONE for phased-sgd", a.relation());
            }
            this.accountant = a;
            return this;
        }

        /** Builds the immutable optimizer. */
        public PhasedSgd build() {
            return new PhasedSgd(this);
        }
    }
}
