package org.dpopt.spark;

import java.io.PrintWriter;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.data.DatasetIO.RowNormPolicy;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.Loss;
import org.dpopt.loss.ProblemShape;
import org.dpopt.noise.Rngs;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.Param;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.RunPlan;
import org.dpopt.optim.frankwolfe.NoisyFrankWolfe;
import org.dpopt.optim.objpert.ApproximateObjectivePerturbation;
import org.dpopt.optim.objpert.ObjectivePerturbation;
import org.dpopt.optim.sgd.NoisySgd;
import org.ejml.data.DMatrixRMaj;

/**
 * {@code dpopt train --engine spark}: read the data on the executors, plan from the public shape, run the
 * optimizer with distributed sums, and evaluate on held-out data — the in-memory flow of the CLI with
 * the data left where it is. The split (without {@code --test-data}) is the in-memory one.
 */
public final class SparkTraining {
    private SparkTraining() {
    }

    /** The algorithms this engine runs. */
    public static final java.util.List<String> ALGORITHMS = java.util.List.of("dp-sgd", "noisy-frank-wolfe",
            "objective-perturbation", "objective-perturbation-svrg");

    /**
     * What to train.
     *
     * @param master the Spark master, or null (spark-submit's, else local[*])
     * @param data FILE|DIR of training rows
     * @param testData FILE|DIR of held-out rows, or null to split {@code data}
     * @param testFraction the split's test fraction (with testData null)
     * @param splitSeed the split's public seed
     * @param format csv, libsvm or parquet
     * @param dimension the declared d, or null where the format gives it
     * @param rowNormBound R
     * @param policy what to do with rows above R
     * @param declaredSize the declared n, or 0
     * @param optimizer one of {@link #ALGORITHMS}
     * @param loss the loss
     * @param domain the constraint set
     * @param budget (ε, δ)
     * @param rng the run's generator (secure unless research mode)
     * @param progress where step progress goes (stderr), or null
     */
    public record Request(String master, String data, String testData, double testFraction, long splitSeed,
            SparkData.Format format, Integer dimension, double rowNormBound, RowNormPolicy policy, int declaredSize,
            PrivateOptimizer optimizer, Loss loss, ConvexSet domain, PrivacyBudget budget, UniformRandomProvider rng,
            PrintWriter progress) {
    }

    /**
     * What came out: the result, the in-process training seconds, held-out metrics, and non-private counts
     * (for {@code --diagnostics} only).
     */
    public record Outcome(OptimizationResult result, double seconds, Double testAccuracy, double testLoss,
            long testRows, long trainRows, long projectedRows) {
    }

    /** Runs a request. */
    public static Outcome train(Request q) {
        Checks.notNull("request", q);
        if (!ALGORITHMS.contains(q.optimizer().name())) {
            throw Checks.fail("--algorithm", "one of " + ALGORITHMS + " with --engine spark (not available on Spark)",
                    q.optimizer().name());
        }
        SparkEngine.quietTaskFailures();
        var spark = SparkEngine.session(q.master());
        DistributedData all = SparkData.read(spark, q.data(), q.format(), q.dimension(), q.rowNormBound(), q.policy());
        long projected = all.projectedRows();
        DistributedData train;
        DistributedData test;
        if (q.testData() != null) {
            train = all;
            test = SparkData.read(spark, q.testData(), q.format(), q.dimension() != null ? q.dimension()
                    : all.dimension(), q.rowNormBound(), q.policy());
        } else {
            DistributedData.Split s = all.split(q.testFraction(), Rngs.seeded(q.splitSeed()));
            train = s.train();
            test = s.test();
            all.unpersist();
        }
        ProblemShape shape = train.shape(q.loss(), q.domain(), q.declaredSize());
        RunPlan plan = q.optimizer().plan(shape, q.budget());
        long steps = plan.parameters().asMap().get(Param.STEPS.key()) instanceof Number k ? k.longValue() : 0;
        Progress progress = new Progress(q.progress(), q.optimizer().name(), steps);
        long t0 = System.nanoTime();
        OptimizationResult r = run(q.optimizer(), train, shape, plan, q.rng(), progress);
        double seconds = (System.nanoTime() - t0) / 1e9;
        DMatrixRMaj w = r.solution();
        Double acc = q.loss().isClassification() ? test.accuracy(w) : null;
        double testLoss = new SparkBatches(test, q.loss(), null).empiricalRisk(w);
        return new Outcome(r, seconds, acc, testLoss, test.rows(), train.rows(), projected);
    }

    /**
     * One run with distributed sums. Progress shows public counts only: a dp-sgd step, a Frank–Wolfe step
     * (one gradient pass each), an SVRG epoch (the anchor pass that ends it: epoch e has done e·k of the
     * planned E·k inner steps; E and k are public), and for exact objective perturbation, whose number of
     * passes depends on the data, only its one release.
     */
    private static OptimizationResult run(PrivateOptimizer opt, DistributedData train, ProblemShape shape,
            RunPlan plan, UniformRandomProvider rng, Progress progress) {
        if (opt instanceof NoisySgd sgd) {
            return sgd.run(new SparkBatches(train, shape.loss(), progress::step), shape, train.rows(), plan, rng);
        }
        if (opt instanceof NoisyFrankWolfe fw) {
            return fw.run(new SparkPasses(train, progress::step), shape, plan, rng);
        }
        if (opt instanceof ApproximateObjectivePerturbation svrg) {
            long k = (long) plan.parameters().real(Param.INNER_STEPS);
            return svrg.run(new SparkPasses(train, passes -> progress.step((passes - 1) * k)), shape, plan, rng);
        }
        OptimizationResult r = ((ObjectivePerturbation) opt).run(new SparkPasses(train), shape, plan, rng);
        progress.step(1);
        return r;
    }

    /** Step progress on stderr: at most one line a second, and the last step. Public counts only. */
    static final class Progress {
        private final PrintWriter out;
        private final String name;
        private final long steps;
        private final long start = System.nanoTime();
        private long lastPrint;

        Progress(PrintWriter out, String name, long steps) {
            this.out = out;
            this.name = name;
            this.steps = steps;
        }

        void step(long done) {
            if (out == null) {
                return;
            }
            long now = System.nanoTime();
            if (done == steps || now - lastPrint > 1_000_000_000L) {
                lastPrint = now;
                out.printf("dpopt: %s step %d/%d (%.1f s)%n", name, done, steps, (now - start) / 1e9);
                out.flush();
            }
        }
    }
}
