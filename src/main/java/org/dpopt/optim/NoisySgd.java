package org.dpopt.optim;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.AblqAccountant;
import org.dpopt.accounting.Calibration;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.accounting.PrivacyLedger;
import org.dpopt.accounting.PrivacyReport;
import org.dpopt.accounting.PldAccountant;
import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;
import org.dpopt.linalg.Vectors;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Loss;
import org.dpopt.loss.Problem;
import org.dpopt.noise.GaussianNoise;
import org.dpopt.sampling.BatchSampler;
import org.dpopt.sampling.Samplers;
import org.ejml.data.DMatrixRMaj;

/**
 * Noisy mini-batch SGD, in two modes.
 *
 * <p><b>Practical DP-SGD</b> (Abadi et al., "Deep Learning with Differential Privacy", CCS 2016,
 * arXiv:1607.00133): batches from a {@link BatchSampler} (Poisson with q = b/n by default), each
 * per-example gradient clipped to ℓ2 norm C, the clipped sum plus N(0, (zC)²I) divided by the
 * sampler's <em>public</em> normalizer b̄ (the expected batch size, never the realized one), a step of
 * size η, projection onto W. The noise multiplier z is calibrated by the accountant so that the
 * sampler's event meets the budget. Empty batches still add noise and count as a step. Output: the
 * last iterate.
 *
 * <p><b>Paper preset</b> (A_NSGD, Bassily, Feldman, Talwar, Thakurta, "Private Stochastic Convex
 * Optimization with Optimal Rates", NeurIPS 2019, arXiv:1908.09970, Algorithm 1 / Thm 3.2):
 * T = ⌊min(n/8, ε²n²/(32 d ln(1/δ)))⌋, η = M/(L√T), m = ⌈max(n√(ε/(4T)), 1)⌉, projection onto the
 * ℓ2 ball of radius M, averaged iterate. Requires a smooth loss with
 * β ≤ (L/M)·min(√(n/2), εn/√(8 d ln(1/δ))) and refuses otherwise. Batches are Poisson with q = m/n
 * (the paper samples with replacement, which the Poisson accountant does not cover) and the noise is
 * calibrated by our accountant rather than the paper's non-explicit constant; see
 * {@code theory-notes/noisy-sgd.md}.
 *
 * <p>Privacy: the sampler's relation (add/remove-one for Poisson; zero-out for the fixed-size and
 * truncated samplers of {@link org.dpopt.sampling.Samplers}, accounted by {@link AblqAccountant});
 * the statement {@link #privacyEvent} is the sampler's event at the calibrated z; the run's ledger
 * records the sampler's step event once per noisy release (this is ABLQ, see
 * {@code org.dpopt.sampling}).
 */
public final class NoisySgd implements PrivateOptimizer {

    /** Which parameter rules apply. */
    public enum Mode {
        /** Practical DP-SGD with user hyperparameters. */
        PRACTICAL,
        /** BFTT19 Algorithm 1 with the theorem's T, η, m. */
        PAPER
    }

    private final Mode mode;
    private final Samplers.Recipe sampler;
    private final int batchSize;
    private final double epochs;
    private final double clipNorm;
    private final double learningRate;
    private final double l2;
    private final double fixedNoiseMultiplier; // NaN: calibrate
    private final PrivacyAccountant accountant;
    private final boolean diagnostics;

    private NoisySgd(Builder b) {
        this.mode = b.mode;
        this.sampler = b.sampler;
        this.batchSize = b.batchSize;
        this.epochs = b.epochs;
        this.clipNorm = b.clipNorm;
        this.learningRate = b.learningRate;
        this.l2 = b.l2;
        this.fixedNoiseMultiplier = b.noiseMultiplier;
        this.accountant = b.accountant;
        this.diagnostics = b.diagnostics;
    }

    /** A builder with the documented defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** The BFTT19 paper preset (Algorithm 1); the problem's domain must be an ℓ2 ball. */
    public static NoisySgd paperPreset() {
        return builder().mode(Mode.PAPER).build();
    }

    @Override
    public String name() {
        return mode == Mode.PAPER ? "nsgd" : "dp-sgd";
    }

    @Override
    public NeighboringRelation relation() {
        return mode == Mode.PAPER ? NeighboringRelation.ADD_OR_REMOVE_ONE : sampler.relation();
    }

    /**
     * The accountant used for calibration and the report: the configured one, else PLD for add/remove
     * samplers (Poisson) and the sampler-aware {@link AblqAccountant} for zero-out samplers.
     */
    public PrivacyAccountant accountant() {
        if (accountant != null) {
            return accountant;
        }
        return relation() == NeighboringRelation.ZERO_OUT ? new AblqAccountant() : new PldAccountant();
    }

    /** Resolved run parameters: everything that depends only on public quantities. */
    record Plan(BatchSampler sampler, double clip, double eta, double z, boolean average, double paperSigma) {
    }

    Plan plan(Problem problem, PrivacyBudget budget) {
        Checks.notNull("problem", problem);
        Checks.notNull("budget", budget);
        int n = problem.size();
        if (mode == Mode.PAPER) {
            return paperPlan(problem, budget);
        }
        int b = batchSize > 0 ? batchSize : defaultBatchSize(n);
        if (b > n) {
            throw Checks.fail("batchSize", "at most the dataset size " + n, b);
        }
        BatchSampler s = sampler.create(n, b, epochs);
        double z = resolveNoise(s, n, budget);
        return new Plan(s, clipNorm, learningRate, z, false, Double.NaN);
    }

    /** Default expected batch size: min(256, max(1, n/10)). */
    public static int defaultBatchSize(int n) {
        return Math.max(1, Math.min(256, n / 10));
    }

    private double resolveNoise(BatchSampler s, int n, PrivacyBudget budget) {
        if (!Double.isNaN(fixedNoiseMultiplier)) {
            return fixedNoiseMultiplier;
        }
        PrivacyAccountant acc = accountant();
        if (s.relation() != acc.relation()) {
            throw Checks.fail("accountant relation", "the sampler's relation " + s.relation(), acc.relation());
        }
        return Calibration.noiseMultiplier(acc, z -> s.privacyEvent(n, z), budget.epsilon(), budget.delta());
    }

    private Plan paperPlan(Problem problem, PrivacyBudget budget) {
        int n = problem.size();
        int d = problem.dimension();
        double eps = budget.epsilon();
        double logInvDelta = Math.log(1 / budget.delta());
        double m0 = problem.domain().radius(problem.dimension());
        if (!Double.isFinite(m0)) {
            throw Checks.fail("domain radius M", "finite for the paper preset (use an L2 ball)", m0);
        }
        double lip = problem.lipschitz();
        double beta = problem.smoothness();
        if (!Double.isFinite(beta)) {
            throw Checks.fail("loss smoothness", "finite for the paper preset of noisy SGD (use phased-sgd or "
                    + "prox-sgd for non-smooth losses)", beta);
        }
        double betaMax = (lip / m0) * Math.min(Math.sqrt(n / 2.0), eps * n / Math.sqrt(8 * d * logInvDelta));
        if (beta > betaMax) {
            throw Checks.fail("smoothness beta", "at most (L/M)*min(sqrt(n/2), eps*n/sqrt(8 d ln(1/delta))) = "
                    + betaMax + " for the BFTT19 theorem", beta);
        }
        long t = (long) Math.floor(Math.min(n / 8.0, eps * eps * n * (double) n / (32 * d * logInvDelta)));
        if (t < 1) {
            throw Checks.fail("T = floor(min(n/8, eps^2 n^2/(32 d ln(1/delta))))", "at least 1", t);
        }
        double eta = m0 / (lip * Math.sqrt(t));
        int m = (int) Math.ceil(Math.max(n * Math.sqrt(eps / (4.0 * t)), 1));
        m = Math.min(m, n);
        BatchSampler s = new org.dpopt.sampling.PoissonSampler(m, t);
        double z = resolveNoise(s, n, budget);
        double paperSigma = lip * Math.sqrt(8 * t * logInvDelta) / (n * eps);
        return new Plan(s, lip, eta, z, true, paperSigma);
    }

    @Override
    public DpEvent privacyEvent(Problem problem, PrivacyBudget budget) {
        Plan p = plan(problem, budget);
        return p.sampler().privacyEvent(problem.size(), p.z());
    }

    @Override
    public OptimizationResult optimize(Problem problem, PrivacyBudget budget, UniformRandomProvider rng) {
        Checks.notNull("rng", rng);
        Plan p = plan(problem, budget);
        Dataset data = problem.data();
        Loss loss = problem.loss();
        int n = data.size();
        int d = data.dimension();
        BatchSampler s = p.sampler();
        long steps = s.steps(n);
        double normalizer = s.normalizer(n);
        double sigma = p.z() * p.clip();
        DpEvent stepEvent = s.stepEvent(n, p.z());

        DMatrixRMaj w = new DMatrixRMaj(d, 1);
        problem.domain().project(w);
        DMatrixRMaj sum = new DMatrixRMaj(d, 1);
        DMatrixRMaj tmp = new DMatrixRMaj(d, 1);
        DMatrixRMaj avg = p.average() ? new DMatrixRMaj(d, 1) : null;
        int[] idx = new int[s.maxBatchSlots(n)];
        double[] weights = new double[idx.length];
        BatchSampler.BatchIterator it = s.iterator(n, rng);
        GaussianNoise noise = GaussianNoise.of(rng);
        PrivacyLedger ledger = new PrivacyLedger();
        GeneralizedLinearLoss gll = loss instanceof GeneralizedLinearLoss g ? g : null;
        double clip = p.clip();
        long evals = 0;
        double clippedFraction = 0;

        for (long t = 0; t < steps; t++) {
            int k = it.next(idx, weights);
            Vectors.zero(sum);
            int clippedHere = 0;
            int real = 0;
            for (int a = 0; a < k; a++) {
                int i = idx[a];
                if (weights[a] == 0) {
                    continue; // padding slot (truncated Poisson): contributes nothing
                }
                real++;
                if (gll != null) {
                    double g = gll.derivative(data.dot(i, w), data.label(i));
                    double norm = Math.abs(g) * data.rowNorm(i);
                    double scale = norm > clip ? clip / norm : 1.0;
                    if (norm > clip) {
                        clippedHere++;
                    }
                    data.addScaledRow(i, g * scale * weights[a], sum);
                } else {
                    loss.gradient(w, data, i, tmp);
                    if (Vectors.clipL2(tmp, clip) < 1) {
                        clippedHere++;
                    }
                    Vectors.axpy(weights[a], tmp, sum);
                }
            }
            evals += real;
            if (real > 0) {
                clippedFraction += (double) clippedHere / real;
            }
            noise.addTo(sum, sigma);
            ledger.record(stepEvent);
            double scale = -p.eta() / normalizer;
            if (l2 > 0) {
                Vectors.scale(1 - p.eta() * l2, w);
            }
            Vectors.axpy(scale, sum, w);
            problem.domain().project(w);
            if (avg != null) {
                Vectors.axpy(1.0 / steps, w, avg);
            }
        }
        DMatrixRMaj out = avg != null ? avg : w;
        DpEvent recorded = ledger.build();
        PrivacyReport report = accountant().report(recorded, budget.delta());
        if (report.epsilon() > budget.epsilon() * (1 + 1e-9) && Double.isNaN(fixedNoiseMultiplier)) {
            throw new IllegalStateException("calibrated run spent epsilon " + report.epsilon()
                    + " above the budget " + budget.epsilon());
        }
        Map<String, Double> params = new HashMap<>();
        params.put("noise_multiplier", p.z());
        params.put("sigma", sigma);
        params.put("clip_norm", clip);
        params.put("learning_rate", p.eta());
        params.put("steps", (double) steps);
        params.put("normalizer", normalizer);
        if (!Double.isNaN(p.paperSigma())) {
            params.put("paper_sigma_on_mean", p.paperSigma());
            params.put("sigma_on_mean", sigma / normalizer);
        }
        Map<String, Double> diag = new HashMap<>();
        if (diagnostics) {
            diag.put("train_loss", problem.empiricalRisk(out));
        }
        diag.put("mean_clipped_fraction", clippedFraction / steps);
        return new OptimizationResult(out, report, recorded, steps, evals, params, diag);
    }

    /** A builder initialised with this optimizer's settings (for sweeps and calibration). */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.mode = mode;
        b.sampler = sampler;
        b.batchSize = batchSize;
        b.epochs = epochs;
        b.clipNorm = clipNorm;
        b.learningRate = learningRate;
        b.l2 = l2;
        b.noiseMultiplier = fixedNoiseMultiplier;
        b.accountant = accountant;
        b.diagnostics = diagnostics;
        return b;
    }

    /**
     * A copy whose noise multiplier is fixed at the value this optimizer would calibrate for the
     * problem's public size and the budget: calibrate once, then run many seeds. The copy's runs
     * spend exactly what a calibrating run would (same event), and their reports certify it.
     */
    public NoisySgd calibratedFor(Problem problem, PrivacyBudget budget) {
        return toBuilder().noiseMultiplier(plan(problem, budget).z()).build();
    }

    /** Builder; every setter validates. */
    public static final class Builder {
        private Mode mode = Mode.PRACTICAL;
        private Samplers.Recipe sampler = Samplers.poisson();
        private int batchSize = 0; // 0: default min(256, n/10)
        private double epochs = 30;
        private double clipNorm = 1.0;
        private double learningRate = 1.0;
        private double l2 = 0;
        private double noiseMultiplier = Double.NaN;
        private PrivacyAccountant accountant = null; // null: chosen by the sampler's relation
        private boolean diagnostics = true;

        private Builder() {
        }

        /** Whether to compute non-private diagnostics (training loss: one extra data pass). Default true. */
        public Builder diagnostics(boolean on) {
            this.diagnostics = on;
            return this;
        }

        /** PRACTICAL (default) or PAPER. */
        public Builder mode(Mode m) {
            this.mode = Checks.notNull("mode", m);
            return this;
        }

        /** Batch sampler recipe (default Poisson). */
        public Builder sampler(Samplers.Recipe r) {
            this.sampler = Checks.notNull("sampler", r);
            return this;
        }

        /** Expected batch size b ≥ 1 (default min(256, n/10)). */
        public Builder batchSize(int b) {
            this.batchSize = Checks.atLeastOne("batchSize", b);
            return this;
        }

        /** Epochs E &gt; 0 (default 30); T = ⌈E·n/b⌉. */
        public Builder epochs(double e) {
            this.epochs = Checks.positive("epochs", e);
            return this;
        }

        /** Clip norm C &gt; 0 (default 1). */
        public Builder clipNorm(double c) {
            this.clipNorm = Checks.positive("clipNorm", c);
            return this;
        }

        /** Learning rate η &gt; 0 (default 1.0, applied to the batch mean). */
        public Builder learningRate(double eta) {
            this.learningRate = Checks.positive("learningRate", eta);
            return this;
        }

        /** ℓ2 regularization λ ≥ 0 added as (λ/2)‖w‖² (default 0). Data-independent. */
        public Builder l2(double lambda) {
            this.l2 = Checks.nonNegative("l2", lambda);
            return this;
        }

        /** Fixes the noise multiplier instead of calibrating it; the report then states the ε spent. */
        public Builder noiseMultiplier(double z) {
            this.noiseMultiplier = Checks.positive("noiseMultiplier", z);
            return this;
        }

        /**
         * Accountant used for calibration and reporting (default: PLD, h = 1e-4, for add/remove samplers
         * such as Poisson; the sampler-aware {@link AblqAccountant} for zero-out samplers).
         */
        public Builder accountant(PrivacyAccountant a) {
            this.accountant = Checks.notNull("accountant", a);
            return this;
        }

        /** Builds the immutable optimizer. */
        public NoisySgd build() {
            return new NoisySgd(this);
        }
    }

    /** Names of the hyperparameters (for documentation). */
    static final List<String> HYPERPARAMETERS = List.of("batchSize", "epochs", "clipNorm", "learningRate", "l2");
}
