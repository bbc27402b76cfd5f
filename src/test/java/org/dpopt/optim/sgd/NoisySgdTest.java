package org.dpopt.optim.sgd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.PoissonSampledEvent;
import org.dpopt.accounting.PldAccountant;
import org.dpopt.accounting.SelfComposedEvent;
import org.dpopt.data.Dataset;
import org.dpopt.data.Synthetic;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.linalg.Vectors;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.dpopt.optim.Diagnostic;
import org.dpopt.eval.Metrics;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.Param;
import org.dpopt.optim.Preset;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.PrivateOptimizerContract;
import org.dpopt.optim.RunParameters;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class NoisySgdTest {

    static Problem logisticProblem(int n, int d, long seed) {
        DMatrixRMaj w = Synthetic.plantedVector(d, 3.0, Rngs.seeded(seed));
        return Problem.of(Synthetic.logistic(n, w, Rngs.seeded(seed + 1)).data(), Losses.logistic());
    }

    @Nested
    class PracticalContract extends PrivateOptimizerContract {
        @Override
        protected PrivateOptimizer optimizer() {
            return NoisySgd.builder().batchSize(32).epochs(3).build();
        }

        @Override
        protected Problem problem() {
            return logisticProblem(400, 5, 10);
        }
    }

    @Nested
    class PaperPresetContract extends PrivateOptimizerContract {
        @Override
        protected PrivateOptimizer optimizer() {
            return Bftt19Sgd.builder().preset(Preset.PAPER).build();
        }

        @Override
        protected Problem problem() {
            Problem p = logisticProblem(2000, 5, 20);
            return Problem.of(p.data(), p.loss(), ConvexSets.l2Ball(1.0));
        }
    }

    @Nested
    class PracticalPresetContract extends PrivateOptimizerContract {
        @Override
        protected PrivateOptimizer optimizer() {
            return Bftt19Sgd.builder().build();
        }

        @Override
        protected Problem problem() {
            Problem p = logisticProblem(2000, 5, 20);
            return Problem.of(p.data(), p.loss(), ConvexSets.l2Ball(1.0));
        }
    }

    /**
     * The tail average is the mean of the last ⌈T/2⌉ iterates of the same run: with a fixed noise
     * multiplier and a fixed seed, a run of t steps draws the same batches and noise as the first t steps
     * of a longer run, so its last iterate is the longer run's w_t.
     */
    @Test
    void tailAverageIsTheMeanOfTheLastHalfOfTheIterates() {
        Problem p = logisticProblem(100, 4, 31);
        PrivacyBudget budget = PrivacyBudget.of(5.0, 1e-5);
        int total = 20;
        java.util.function.Supplier<NoisySgd.Builder> base =
                () -> NoisySgd.builder().batchSize(10).noiseMultiplier(2.0).learningRate(0.5);
        OptimizationResult tail = base.get().tailAverage().epochs((total - 0.5) / 10).build()
                .optimize(p, budget, Rngs.seeded(5));
        DMatrixRMaj mean = new DMatrixRMaj(p.shape().parameterDimension(), 1);
        for (int t = total / 2 + 1; t <= total; t++) {
            OptimizationResult last = base.get().epochs((t - 0.5) / 10).build().optimize(p, budget, Rngs.seeded(5));
            assertEquals(t, last.steps());
            Vectors.axpy(1.0 / (total - total / 2), last.solution(), mean);
        }
        assertEquals("tail-average", tail.parameters().get(Param.OUTPUT));
        assertEquals(total, tail.steps());
        DMatrixRMaj got = tail.solution();
        for (int j = 0; j < mean.getNumRows(); j++) {
            assertEquals(mean.get(j), got.get(j), 1e-12, "coordinate " + j);
        }
        OptimizationResult lastOfAll = base.get().epochs((total - 0.5) / 10).build().optimize(p, budget, Rngs.seeded(5));
        assertEquals("last", lastOfAll.parameters().get(Param.OUTPUT));
        assertEquals(lastOfAll.ledger(), tail.ledger(), "the output rule changes no release");
        assertTrue(Math.abs(lastOfAll.solution().get(0) - got.get(0)) > 1e-9, "the tail average is not the last iterate");
    }

    @Test
    void practicalPresetRunsDpSgdsScheduleOverTheBallWithATailAverage() {
        // n = 2000: b = min(256, n/10) = 200, T = ceil(30 n/b) = 300, the average of the last 150 iterates;
        // the hinge loss is accepted (the smoothness condition is the paper preset's utility condition)
        Problem p = Problem.of(logisticProblem(2000, 5, 20).data(), Losses.hinge(), ConvexSets.l2Ball(1.0));
        RunParameters plan = Bftt19Sgd.builder().build().plan(p.shape(), PrivacyBudget.of(1, 1e-5)).parameters();
        assertEquals("practical", plan.get(Param.PRESET));
        assertEquals(300L, plan.get(Param.STEPS));
        assertEquals(200.0, plan.real(Param.BATCH_SIZE));
        assertEquals("tail-average", plan.get(Param.OUTPUT));
        assertThrows(IllegalArgumentException.class, () -> Bftt19Sgd.builder().preset(Preset.PAPER).epochs(3).build());
    }

    @Nested
    class NonPrivateContract extends PrivateOptimizerContract {
        @Override
        protected PrivateOptimizer optimizer() {
            return NonPrivateSgd.builder().batchSize(32).epochs(2).build();
        }

        @Override
        protected Problem problem() {
            return logisticProblem(300, 4, 11);
        }

        @Override
        protected PrivacyBudget budget() {
            return null;
        }
    }

    @Test
    void statementIsThePoissonDpSgdEvent() {
        Problem p = logisticProblem(1000, 4, 1);
        NoisySgd sgd = NoisySgd.builder().batchSize(50).epochs(2).noiseMultiplier(1.3).build();
        assertEquals(new SelfComposedEvent(new PoissonSampledEvent(0.05, new GaussianEvent(1.3)), 40),
                sgd.privacyEvent(p, PrivacyBudget.of(1, 1e-5)));
        OptimizationResult r = sgd.optimize(p, PrivacyBudget.of(1, 1e-5), Rngs.seeded(1));
        assertEquals(40, r.steps());
        // with a fixed noise multiplier the report states what was spent, which may exceed the target
        assertEquals(new PldAccountant().epsilon(r.ledger(), 1e-5), r.privacy().epsilon(), 1e-12);
    }

    @Test
    void calibratedNoiseMeetsBudgetTightly() {
        Problem p = logisticProblem(1000, 4, 2);
        for (double eps : new double[] {0.5, 2, 8}) {
            OptimizationResult r = NoisySgd.builder().batchSize(50).epochs(5).build()
                    .optimize(p, PrivacyBudget.of(eps, 1e-5), Rngs.seeded(3));
            assertTrue(r.privacy().epsilon() <= eps);
            assertTrue(r.privacy().epsilon() > 0.99 * eps, "calibration too loose: " + r.privacy().epsilon());
        }
    }

    @Test
    void emptyBatchesStillAddNoiseAndCountAsSteps() {
        // All rows are zero, so every clipped gradient is 0 and w moves only by noise. With expected
        // batch 0.1 of n = 1000 (q = 1e-4) about 90% of the 10 batches are empty. If every step adds
        // noise, each coordinate of w is N(0, T (eta z C / b)^2) = N(0, 1000); if empty batches skipped
        // noise the variance would be about 100. The sample variance over d = 200 coordinates is a
        // scaled chi-square(200): P(below 500 | variance 1000) < 1e-8 (false-failure probability).
        int n = 1000;
        int d = 200;
        Dataset zeros = Dataset.of(new double[n][d], new double[n], 1.0);
        Problem p = Problem.of(zeros, Losses.logistic());
        NoisySgd sgd = NoisySgd.builder().sampler((nn, b, e) -> new org.dpopt.sampling.PoissonSampler(0.1, 10))
                .batchSize(1).noiseMultiplier(1.0).learningRate(1.0).diagnostics(true).build();
        OptimizationResult r = sgd.optimize(p, PrivacyBudget.of(1, 1e-5), Rngs.seeded(5));
        assertEquals(10, r.steps());
        double evals = r.nonPrivateDiagnostics().get(Diagnostic.GRADIENT_EVALUATIONS);
        assertTrue(evals < 10, "most batches must have been empty: " + evals);
        double ss = 0;
        for (double v : r.solution().data) {
            ss += v * v;
        }
        assertTrue(ss / d > 500, "sample variance " + ss / d + ": empty batches did not add noise");
    }

    @Test
    void clippingBoundsEachContribution() {
        // a single huge-gradient example must move w by at most eta * C / b (+ noise, here ~0)
        double[][] x = {{1.0, 0.0}};
        Dataset data = Dataset.of(x, new double[] {1}, 1.0);
        Problem p = Problem.of(data, Losses.squared(100, 100));
        NoisySgd sgd = NoisySgd.builder().batchSize(1).epochs(1).clipNorm(0.1).learningRate(1.0)
                .noiseMultiplier(1e-12).build();
        OptimizationResult r = sgd.optimize(Problem.of(data, Losses.squared(100, 100)),
                PrivacyBudget.of(1, 1e-5), Rngs.seeded(1));
        assertTrue(Vectors.norm2(r.solution()) <= 0.1 + 1e-9, "moved " + Vectors.norm2(r.solution()));
        assertTrue(p.lipschitz() > 0.1);
    }

    @Test
    void learnsAtLargeEpsilon() {
        Problem p = logisticProblem(20000, 10, 6);
        Problem test = p.withData(Synthetic.logistic(5000, Synthetic.plantedVector(10, 3.0, Rngs.seeded(6)),
                Rngs.seeded(99)).data());
        OptimizationResult dp = NoisySgd.builder().build().optimize(p, PrivacyBudget.of(8, 1e-5), Rngs.seeded(7));
        OptimizationResult np = NonPrivateSgd.builder().build().optimize(p, null, Rngs.seeded(7));
        double accDp = Metrics.accuracy(dp.solution(), test.data());
        double accNp = Metrics.accuracy(np.solution(), test.data());
        assertTrue(accDp > accNp - 0.03, "dp " + accDp + " vs non-private " + accNp);
    }

    @Test
    void paperPresetParametersFollowTheTheorem() {
        // Theorem 3.2's formulas at n = 1e4, d = 100, eps = 1, delta = 1e-8, L = M = 1:
        // T = min(n/8, eps^2 n^2/(32 d ln(1/delta))) = 1250, m = ceil(n sqrt(eps/(4T))) = ceil(141.42) = 142,
        // eta = M/(L sqrt(T)) = 0.028284 (theory-notes/noisy-sgd.md)
        double[][] x = new double[10_000][100];
        double[] y = new double[10_000];
        for (int i = 0; i < x.length; i++) {
            x[i][i % 100] = 1.0;
            y[i] = i % 2;
        }
        Problem p = Problem.of(Dataset.of(x, y, 1.0), Losses.logistic(), ConvexSets.l2Ball(1.0));
        RunParameters plan = Bftt19Sgd.builder().preset(Preset.PAPER).build().plan(p.shape(), PrivacyBudget.of(1, 1e-8)).parameters();
        assertEquals(1250L, plan.get(Param.STEPS));
        assertEquals(142, plan.real(Param.NORMALIZER), 0);
        assertEquals(0.028284, plan.real(Param.LEARNING_RATE), 1e-6);
        assertEquals(1.0, plan.real(Param.CLIP_NORM), 0);
        assertEquals("average", plan.get(Param.OUTPUT));
    }

    @Test
    void paperPresetRefusesWhatVoidsItsTheorem() {
        Problem base = logisticProblem(2000, 5, 8);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Bftt19Sgd.builder().preset(Preset.PAPER).build().privacyEvent(base, PrivacyBudget.of(1, 1e-5)));
        assertTrue(e.getMessage().startsWith("domain radius M must be finite"), e.getMessage());
        Problem hinge = Problem.of(base.data(), Losses.hinge(), ConvexSets.l2Ball(1));
        e = assertThrows(IllegalArgumentException.class,
                () -> Bftt19Sgd.builder().preset(Preset.PAPER).build().privacyEvent(hinge, PrivacyBudget.of(1, 1e-5)));
        assertTrue(e.getMessage().startsWith("loss smoothness must be finite"), e.getMessage());
        // smoothed hinge with tiny gamma: beta = 1/gamma far above (L/M) min(sqrt(n/2), ...)
        Problem sharp = Problem.of(base.data(), Losses.smoothedHinge(1e-4), ConvexSets.l2Ball(1));
        e = assertThrows(IllegalArgumentException.class,
                () -> Bftt19Sgd.builder().preset(Preset.PAPER).build().privacyEvent(sharp, PrivacyBudget.of(1, 1e-5)));
        assertTrue(e.getMessage().startsWith("smoothness beta must be at most"), e.getMessage());
    }

    @Test
    void rejectsBadInput() {
        assertThrows(IllegalArgumentException.class, () -> NoisySgd.builder().batchSize(0));
        assertThrows(IllegalArgumentException.class, () -> NoisySgd.builder().epochs(-1));
        assertThrows(IllegalArgumentException.class, () -> NoisySgd.builder().clipNorm(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> NoisySgd.builder().learningRate(0));
        assertThrows(IllegalArgumentException.class, () -> NoisySgd.builder().noiseMultiplier(-1));
        assertThrows(IllegalArgumentException.class, () -> NoisySgd.builder().l2(Double.POSITIVE_INFINITY));
        assertThrows(IllegalArgumentException.class, () -> PrivacyBudget.of(0, 1e-5));
        assertThrows(IllegalArgumentException.class, () -> PrivacyBudget.of(-1, 1e-5));
        assertThrows(IllegalArgumentException.class, () -> PrivacyBudget.of(1, 0));
        assertThrows(IllegalArgumentException.class, () -> PrivacyBudget.of(1, 1));
        assertThrows(IllegalArgumentException.class, () -> PrivacyBudget.of(Double.NaN, 1e-5));
        Problem small = logisticProblem(100, 3, 9);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NoisySgd.builder().batchSize(500).build().optimize(small, PrivacyBudget.of(1, 1e-5), Rngs.seeded(1)));
        assertTrue(e.getMessage().startsWith("batchSize must be at most the dataset size"), e.getMessage());
    }
}
