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
import org.dpopt.optim.check.ConstantCheck;
import org.dpopt.optim.frankwolfe.NoisyFrankWolfe;
import org.dpopt.optim.objpert.ApproximateObjectivePerturbation;
import org.dpopt.optim.objpert.ObjectivePerturbation;
import org.dpopt.optim.sgd.NoisySgd;
import org.ejml.data.DMatrixRMaj;

/**
 * {@code dpopt train --engine spark}: read the data on the executors, plan from the public shape, run the
 * optimizer with distributed sums, and evaluate on held-out data — the in-memory flow of the CLI with
 * the data left where it is: {@link #load} (read, validate, split — the split without
 * {@code --test-data} is the in-memory one), {@link #train}, {@link #evaluate}.
 */
public final class SparkTraining {
    private SparkTraining() {
    }

    /** The algorithms this engine runs. */
    public static final java.util.List<String> ALGORITHMS = java.util.List.of("dp-sgd", "noisy-frank-wolfe",
            "objective-perturbation", "objective-perturbation-svrg");

    /** The most distinct labels a classification run reads (a k-class model needs k below it). */
    public static final int LABEL_CAP = 10_000;

    /**
     * Where the rows are.
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
     */
    public record Source(String master, String data, String testData, double testFraction, long splitSeed,
            SparkData.Format format, Integer dimension, double rowNormBound, RowNormPolicy policy) {
    }

    /**
     * The rows read and split, cached on the executors, with their labels for validation (the whole file's,
     * the training part's, and the test file's if one was given, else null) and the non-private count of
     * projected rows.
     */
    public record Inputs(DistributedData train, DistributedData test, LabelSummary fileLabels,
            LabelSummary trainLabels, LabelSummary testLabels, long projectedRows) {
    }

    /** Reads and validates the rows and splits them as in memory (the split's seed is public). */
    public static Inputs load(Source q) {
        Checks.notNull("source", q);
        SparkEngine.quietTaskFailures();
        var spark = SparkEngine.session(q.master());
        DistributedData all = SparkData.read(spark, q.data(), q.format(), q.dimension(), q.rowNormBound(), q.policy());
        long projected = all.projectedRows();
        LabelSummary fileLabels = all.labels(LABEL_CAP);
        if (q.testData() != null) {
            DistributedData test = SparkData.read(spark, q.testData(), q.format(), q.dimension() != null
                    ? q.dimension() : all.dimension(), q.rowNormBound(), q.policy());
            return new Inputs(all, test, fileLabels, fileLabels, test.labels(LABEL_CAP), projected);
        }
        DistributedData.Split s = all.split(q.testFraction(), Rngs.seeded(q.splitSeed()));
        all.unpersist();
        return new Inputs(s.train(), s.test(), fileLabels, s.train().labels(LABEL_CAP), null, projected);
    }

    /**
     * How to train.
     *
     * @param declaredSize the declared n, or 0
     * @param optimizer one of {@link #ALGORITHMS}
     * @param loss the loss
     * @param domain the constraint set
     * @param interceptScale the intercept's constant c (its column is built on the executors), or 0
     * @param budget (ε, δ)
     * @param rng the run's generator (secure unless research mode)
     * @param progress where step progress goes (stderr), or null
     * @param onPlan called with the plan before any noisy release (e.g. to reserve it in a budget file; an
     *               exception stops the run before it starts), or null
     */
    public record Fit(int declaredSize, PrivateOptimizer optimizer, Loss loss, ConvexSet domain,
            double interceptScale, PrivacyBudget budget, UniformRandomProvider rng, PrintWriter progress,
            java.util.function.Consumer<RunPlan> onPlan) {
    }

    /** What came out: the result, the public shape it was planned for, and the in-process training seconds. */
    public record Outcome(OptimizationResult result, ProblemShape shape, double seconds) {
    }

    /**
     * Plans from the public shape and runs with distributed sums. With an intercept, the training rows
     * become (x, c) on the executors, as in memory, so the shape is (d + 1, √(R² + c²)).
     */
    public static Outcome train(Inputs in, Fit q) {
        Checks.notNull("fit", q);
        PrivateOptimizer trained = q.optimizer() instanceof ConstantCheck c ? c.trained() : q.optimizer();
        if (!ALGORITHMS.contains(trained.name())) {
            throw Checks.fail("--algorithm", "one of " + ALGORITHMS + " with --engine spark (not available on Spark)",
                    q.optimizer().name());
        }
        DistributedData train = q.interceptScale() > 0 ? in.train().withConstantColumn(q.interceptScale())
                : in.train();
        ProblemShape shape = train.shape(q.loss(), q.domain(), q.declaredSize());
        RunPlan plan = q.optimizer().plan(shape, q.budget());
        if (q.onPlan() != null) {
            q.onPlan().accept(plan);
        }
        long steps = plan.parameters().asMap().get(Param.STEPS.key()) instanceof Number k ? k.longValue() : 0;
        Progress progress = new Progress(q.progress(), q.optimizer().name(), steps);
        long t0 = System.nanoTime();
        OptimizationResult r = run(q.optimizer(), train, shape, plan, q.rng(), progress);
        double seconds = (System.nanoTime() - t0) / 1e9;
        train.unpersist();
        return new Outcome(r, shape, seconds);
    }

    /** Held-out metrics (not covered by the guarantee): accuracy of a classifier, or null, and the mean loss. */
    public record Evaluation(Double accuracy, double loss, long rows) {
    }

    /**
     * Evaluates on held-out rows as in memory: a classifier's accuracy by its model file's own
     * {@code accuracy} (on the executors), and the mean loss of w on the rows (x, c) with the intercept's
     * constant c (0: none). The rows are released afterwards.
     *
     * @param modelJson the model file's text (a classifier's: its accuracy is computed), or null (regression)
     */
    public static Evaluation evaluate(DistributedData test, Loss loss, double interceptScale, DMatrixRMaj w,
            String modelJson) {
        Checks.notNull("test", test);
        long rows = test.rows();
        Double acc = modelJson != null ? (double) test.correct(modelJson) / rows : null;
        DistributedData t = interceptScale > 0 ? test.withConstantColumn(interceptScale) : test;
        double testLoss = new SparkBatches(t, loss, null).empiricalRisk(w);
        t.unpersist();
        return new Evaluation(acc, testLoss, rows);
    }

    /**
     * One run with distributed sums. Progress shows public counts only: a dp-sgd step, a Frank–Wolfe step
     * (one gradient pass each), an SVRG epoch (the anchor pass that ends it: epoch e has done e·k of the
     * planned E·k inner steps; E and k are public), and for exact objective perturbation, whose number of
     * passes depends on the data, only its one release.
     */
    private static OptimizationResult run(PrivateOptimizer opt, DistributedData train, ProblemShape shape,
            RunPlan plan, UniformRandomProvider rng, Progress progress) {
        if (opt instanceof ConstantCheck check) {
            OptimizationResult trained = run(check.trained(), train, shape, ConstantCheck.trainedPlan(plan), rng,
                    progress);
            return check.check(plan, shape, trained, train.classCounts(), rng);
        }
        if (opt instanceof NoisySgd sgd) {
            return sgd.run(new SparkBatches(train, shape.loss(), progress::step), shape, train.rows(), plan, rng);
        }
        if (opt instanceof NoisyFrankWolfe fw && NoisyFrankWolfe.onBatches(plan)) {
            return fw.run(new SparkBatches(train, shape.loss(), progress::step), shape, train.rows(), plan, rng);
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
