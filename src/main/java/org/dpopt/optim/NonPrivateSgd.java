package org.dpopt.optim;

import java.util.Map;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.PermutationSampler;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.NonPrivateEvent;
import org.dpopt.accounting.PrivacyReport;
import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;
import org.dpopt.linalg.Vectors;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Problem;
import org.ejml.data.DMatrixRMaj;

/**
 * Plain mini-batch SGD without clipping or noise: the non-private baseline. Shuffles each epoch,
 * fixed batches of size b, step η on the batch mean, projection onto W. Its report says ε = ∞.
 *
 * @param batchSize b ≥ 1 (0: min(256, n/10))
 * @param epochs E &gt; 0
 * @param learningRate η &gt; 0
 * @param l2 ridge λ ≥ 0 ((λ/2)‖w‖²)
 * @param diagnostics compute the training loss after the run (one extra data pass)
 */
public record NonPrivateSgd(int batchSize, double epochs, double learningRate, double l2, boolean diagnostics)
        implements PrivateOptimizer {

    /** Validates. */
    public NonPrivateSgd {
        if (batchSize < 0) {
            throw Checks.fail("batchSize", "non-negative", batchSize);
        }
        Checks.positive("epochs", epochs);
        Checks.positive("learningRate", learningRate);
        Checks.nonNegative("l2", l2);
    }

    /** Defaults: b = min(256, n/10), 30 epochs, η = 1. */
    public static NonPrivateSgd defaults() {
        return new NonPrivateSgd(0, 30, 1.0, 0, true);
    }

    @Override
    public String name() {
        return "non-private";
    }

    @Override
    public NeighboringRelation relation() {
        return NeighboringRelation.ADD_OR_REMOVE_ONE;
    }

    @Override
    public DpEvent privacyEvent(Problem problem, PrivacyBudget budget) {
        return NonPrivateEvent.INSTANCE;
    }

    @Override
    public OptimizationResult optimize(Problem problem, PrivacyBudget budget, UniformRandomProvider rng) {
        Dataset data = problem.data();
        int n = data.size();
        int d = data.dimension();
        int b = batchSize > 0 ? Math.min(batchSize, n) : NoisySgd.defaultBatchSize(n);
        long perEpoch = (n + b - 1) / b;
        long steps = (long) Math.ceil(epochs * perEpoch);
        DMatrixRMaj w = new DMatrixRMaj(d, 1);
        DMatrixRMaj g = new DMatrixRMaj(d, 1);
        DMatrixRMaj sum = new DMatrixRMaj(d, 1);
        int[] perm = PermutationSampler.natural(n);
        GeneralizedLinearLoss gll = problem.loss() instanceof GeneralizedLinearLoss x ? x : null;
        long evals = 0;
        for (long t = 0; t < steps; t++) {
            int start = (int) ((t % perEpoch) * b);
            if (start == 0) {
                PermutationSampler.shuffle(rng, perm);
            }
            int end = Math.min(n, start + b);
            Vectors.zero(sum);
            if (gll != null) {
                for (int a = start; a < end; a++) {
                    int i = perm[a];
                    data.addScaledRow(i, gll.derivative(data.dot(i, w), data.label(i)), sum);
                }
            } else {
                for (int a = start; a < end; a++) {
                    problem.loss().gradient(w, data, perm[a], g);
                    Vectors.axpy(1.0, g, sum);
                }
            }
            evals += end - start;
            if (l2 > 0) {
                Vectors.scale(1 - learningRate * l2, w);
            }
            Vectors.axpy(-learningRate / (end - start), sum, w);
            problem.domain().project(w);
        }
        return new OptimizationResult(w, PrivacyReport.nonPrivate(budget == null ? 0 : budget.delta()),
                NonPrivateEvent.INSTANCE, steps, evals,
                Map.of("learning_rate", learningRate, "batch_size", (double) b),
                diagnostics ? Map.of("train_loss", problem.empiricalRisk(w)) : Map.of());
    }
}
