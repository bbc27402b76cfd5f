package org.dpopt.optim.sgd;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.linalg.Vectors;
import org.dpopt.loss.Problem;
import org.dpopt.optim.Diagnostic;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.RunPlan;
import org.dpopt.optim.core.Mutation;
import org.dpopt.optim.core.PrivateRun;
import org.dpopt.optim.core.RunOptions;
import org.dpopt.oracle.BatchGradientSource;
import org.dpopt.oracle.DatasetBatches;
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

    /** Runs a plan whose detail is an {@link SgdSchedule} on the problem's rows: start, loop, finish. */
    static OptimizationResult run(Problem problem, RunPlan plan, UniformRandomProvider rng, RunOptions options) {
        SgdSchedule s = plan.detail(SgdSchedule.class);
        PrivateRun run = PrivateRun.start(plan, problem, rng, options);
        return run.finish(run(run, s));
    }

    /** Runs the schedule on the run's in-memory problem; returns the last (or averaged) iterate. */
    static DMatrixRMaj run(PrivateRun run, SgdSchedule s) {
        Problem problem = run.problem();
        return run(run, s, new DatasetBatches(problem.data(), problem.loss()));
    }

    /**
     * Runs the schedule with batch sums from a source (in memory or distributed); the noise, the update
     * and the ledger are the run's, on this JVM.
     */
    static DMatrixRMaj run(PrivateRun run, SgdSchedule s, BatchGradientSource source) {
        ConvexSet domain = run.plan().shape().domain();
        int n = run.plan().shape().size();
        int d = run.plan().shape().parameterDimension();
        long steps = s.steps();
        Mutation mutation = run.mutation();
        double clip = mutation == Mutation.NO_CLIPPING ? Double.POSITIVE_INFINITY : s.clip();

        DMatrixRMaj w = new DMatrixRMaj(d, 1);
        domain.project(w);
        DMatrixRMaj sum = new DMatrixRMaj(d, 1);
        DMatrixRMaj avg = s.lastIterate() ? null : new DMatrixRMaj(d, 1);
        double share = 1.0 / (steps - s.averageFrom());
        source.open(s.sampler(), n, run.rng());
        long evals = 0;
        double clippedFraction = 0;
        for (long t = 0; t < steps; t++) {
            Vectors.zero(sum);
            BatchGradientSource.BatchSum b = source.addBatch(t, w, clip, sum);
            int real = b.rows();
            evals += real;
            if (real > 0) {
                clippedFraction += (double) b.clipped() / real;
            }
            run.gaussian(sum, s.clip(), s.stepEvent());
            double normalizer = mutation == Mutation.REALIZED_BATCH ? Math.max(1, real) : s.normalizer();
            double scale = -s.eta() / normalizer;
            if (s.l2() > 0) {
                Vectors.scale(1 - s.eta() * s.l2(), w);
            }
            Vectors.axpy(scale, sum, w);
            domain.project(w);
            if (avg != null && t >= s.averageFrom()) {
                Vectors.axpy(share, w, avg); // post-processing of the released noisy iterates
            }
        }
        DMatrixRMaj out = avg != null ? avg : w;
        if (run.diagnosticsOn()) {
            run.diagnose(Diagnostic.GRADIENT_EVALUATIONS, evals);
            run.diagnose(Diagnostic.MEAN_CLIPPED_FRACTION, clippedFraction / steps);
            run.diagnose(Diagnostic.TRAIN_LOSS, source.empiricalRisk(out));
        }
        return out;
    }
}
