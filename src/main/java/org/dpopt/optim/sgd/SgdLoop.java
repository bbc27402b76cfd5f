package org.dpopt.optim.sgd;

import org.dpopt.data.Dataset;
import org.dpopt.linalg.Vectors;
import org.dpopt.loss.Problem;
import org.dpopt.optim.Diagnostic;
import org.dpopt.optim.core.Mutation;
import org.dpopt.optim.core.PrivateRun;
import org.dpopt.oracle.GradientOracle;
import org.dpopt.oracle.SmoothedLoss;
import org.dpopt.sampling.BatchSampler;
import org.ejml.data.DMatrixRMaj;

/**
 * The noisy mini-batch SGD loop shared by practical DP-SGD and the BFTT19 preset:
 * <pre>
 *   for t = 1..T:  B_t from the sampler;  s = Σ_{i∈B_t} ω_i clip_C(∇f(w; z_i)) + N(0, (zC)² I)
 *                  w ← Π_W((1 − ηλ) w − (η / b̄) s)
 * </pre>
 * with b̄ the sampler's public normalizer. Empty batches still add noise and count as a step.
 */
final class SgdLoop {
    private SgdLoop() {
    }

    /** Runs the schedule; returns the last (or averaged) iterate. */
    static DMatrixRMaj run(PrivateRun run, SgdSchedule s) {
        Problem problem = run.problem();
        Dataset data = problem.data();
        int n = run.plan().shape().size();
        int d = problem.parameterDimension();
        GradientOracle oracle = SmoothedLoss.runOracle(problem.loss(), d, data.rowNormBound());
        BatchSampler sampler = s.sampler();
        long steps = s.steps();
        Mutation mutation = run.mutation();
        double clip = mutation == Mutation.NO_CLIPPING ? Double.POSITIVE_INFINITY : s.clip();
        boolean countReal = run.diagnosticsOn() || mutation == Mutation.REALIZED_BATCH;

        DMatrixRMaj w = new DMatrixRMaj(d, 1);
        problem.domain().project(w);
        DMatrixRMaj sum = new DMatrixRMaj(d, 1);
        DMatrixRMaj scratch = new DMatrixRMaj(d, 1);
        DMatrixRMaj avg = s.average() ? new DMatrixRMaj(d, 1) : null;
        int[] idx = new int[sampler.maxBatchSlots(n)];
        double[] weights = new double[idx.length];
        BatchSampler.BatchIterator it = sampler.iterator(n, run.rng());
        long evals = 0;
        double clippedFraction = 0;
        for (long t = 0; t < steps; t++) {
            int k = it.next(idx, weights);
            Vectors.zero(sum);
            int clipped = oracle.addClippedBatch(w, data, idx, 0, k, weights, clip, sum, scratch);
            int real = countReal ? realCount(idx, weights, k, data.size()) : 0;
            evals += real;
            if (real > 0) {
                clippedFraction += (double) clipped / real;
            }
            run.gaussian(sum, s.clip(), s.stepEvent());
            double normalizer = mutation == Mutation.REALIZED_BATCH ? Math.max(1, real) : s.normalizer();
            double scale = -s.eta() / normalizer;
            if (s.l2() > 0) {
                Vectors.scale(1 - s.eta() * s.l2(), w);
            }
            Vectors.axpy(scale, sum, w);
            problem.domain().project(w);
            if (avg != null) {
                Vectors.axpy(1.0 / steps, w, avg);
            }
        }
        DMatrixRMaj out = avg != null ? avg : w;
        if (run.diagnosticsOn()) {
            run.diagnose(Diagnostic.GRADIENT_EVALUATIONS, evals);
            run.diagnose(Diagnostic.MEAN_CLIPPED_FRACTION, clippedFraction / steps);
            run.diagnose(Diagnostic.TRAIN_LOSS, problem.empiricalRisk(out));
        }
        return out;
    }

    private static int realCount(int[] idx, double[] weights, int k, int rows) {
        int real = 0;
        for (int a = 0; a < k; a++) {
            if (weights[a] != 0 && idx[a] < rows) {
                real++;
            }
        }
        return real;
    }
}
