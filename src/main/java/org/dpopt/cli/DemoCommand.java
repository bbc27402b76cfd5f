package org.dpopt.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dpopt.data.BundledDatasets;
import org.dpopt.data.Dataset;
import org.dpopt.data.Splits;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.dpopt.eval.Metrics;
import org.dpopt.optim.sgd.NoisySgd;
import org.dpopt.optim.sgd.NonPrivateSgd;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.Param;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.RunPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code dpopt demo}: DP logistic regression (DP-SGD with default settings) on a bundled real dataset
 * at ε ∈ {0.5, 1, 2, 8}, δ = 1e-5, on its fixed test split; mean and spread over several seeds.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Train DP logistic regression on a bundled real dataset and print accuracy and privacy.")
final class DemoCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--dataset", defaultValue = "breast_cancer", description = "breast_cancer | heart_scale | diabetes")
    String dataset;
    @Option(names = "--runs", defaultValue = "10", description = "Seeds per epsilon (default 10).")
    int runs;
    @Option(names = "--json") boolean json;

    /** The demo's short explanation of ε, printed under the table. */
    static final String WHAT_EPSILON_MEANS = String.join("\n",
            "What epsilon means: adding or removing any one person's row changes the probability of every possible",
            "model by at most a factor e^epsilon (except with probability delta). So someone who thought it 50:50 that",
            "a given person is in the training data can, after seeing the model, be at most e^eps/(1+e^eps) sure:",
            "73% at epsilon = 1, 88% at 2, 99.97% at 8 (ignoring the small delta). Smaller epsilon protects more and",
            "costs accuracy, as the table shows; delta should stay well below 1/n. Each run spends its epsilon: runs on",
            "the same data add up (dpopt train --budget-file keeps the total).");

    /** The target δ of every row. */
    static final double DELTA = 1e-5;

    /** The target ε of the rows. */
    private static final double[] EPSILONS = {0.5, 1, 2, 8};

    @Override
    public Integer call() {
        if (runs < 1 || runs > 1000) {
            throw org.dpopt.linalg.Checks.fail("--runs", "in [1, 1000] (more would run for hours)", runs);
        }
        Splits.Split split = BundledDatasets.split(dataset);
        Problem problem = Problem.of(split.train(), Losses.logistic());
        PrintWriter o = spec.commandLine().getOut();
        // non-private reference: same loop, no clipping, no noise
        double npAcc = 0;
        long t0 = System.nanoTime();
        for (int r = 0; r < runs; r++) {
            npAcc += Metrics.accuracy(NonPrivateSgd.builder().build().optimize(problem, null, Rngs.seeded(r)).solution(),
                    split.test());
        }
        npAcc /= runs;
        double npSec = (System.nanoTime() - t0) / 1e9 / runs;
        if (!json) {
            o.printf("dpopt demo: DP-SGD logistic regression on %s (n_train=%d, n_test=%d, d=%d), delta=%.0e, "
                    + "%d seeds per row%n", dataset, split.train().size(), split.test().size(),
                    split.train().dimension(), DELTA, runs);
            o.printf("%8s %10s %16s %14s %12s %8s   %s%n", "epsilon", "delta", "test acc (mean)", "acc (std)",
                    "non-private", "seconds", "privacy guarantee (certified)");
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        for (double eps : EPSILONS) {
            Row row = row(problem, split.test(), eps);
            rows.add(row.json(npAcc));
            if (!json) {
                row.print(o, npAcc);
            }
            o.flush();
        }
        if (json) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("dataset", dataset);
            out.put("non_private_accuracy", npAcc);
            out.put("non_private_seconds", npSec);
            out.put("rows", rows);
            o.println(Json.write(out));
        } else {
            footer(o, npAcc, npSec);
        }
        o.flush();
        return 0;
    }

    /**
     * One row of the table: DP-SGD calibrated once to (ε, δ), then {@code runs} runs with secure noise.
     *
     * @param secondsPerRun the runs' mean time, the calibration's share included
     * @param last the last run (its guarantee and planned parameters are the same for every run)
     */
    private record Row(double epsilon, double mean, double sd, double secondsPerRun, OptimizationResult last) {

        Map<String, Object> json(double npAcc) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("epsilon", epsilon);
            row.put("delta", DELTA);
            row.put("epsilon_certified", last.privacy().epsilon());
            row.put("test_accuracy", mean);
            row.put("test_accuracy_std", sd);
            row.put("non_private_accuracy", npAcc);
            row.put("seconds", secondsPerRun);
            row.put("noise_multiplier", last.parameters().real(Param.NOISE_MULTIPLIER));
            return row;
        }

        void print(PrintWriter o, double npAcc) {
            o.printf("%8.2f %10.0e %16.4f %14.4f %12.4f %8.3f   eps<=%.4f at delta=%.0e (%s, %s, z=%.3f, T=%d)%n",
                    epsilon, DELTA, mean, sd, npAcc, secondsPerRun, last.privacy().epsilon(), DELTA,
                    last.privacy().accountant(), last.privacy().relation(),
                    last.parameters().real(Param.NOISE_MULTIPLIER), last.steps());
        }
    }

    private Row row(Problem problem, Dataset test, double eps) {
        PrivacyBudget budget = PrivacyBudget.of(eps, DELTA);
        long c0 = System.nanoTime();
        NoisySgd sgd = NoisySgd.builder().build();
        RunPlan plan = sgd.plan(problem.shape(), budget); // calibrate once per epsilon
        double calibrationSeconds = (System.nanoTime() - c0) / 1e9;
        double[] accs = new double[runs];
        double secs = 0;
        OptimizationResult last = null;
        for (int r = 0; r < runs; r++) {
            long s0 = System.nanoTime();
            last = sgd.run(problem, plan, Rngs.secure());
            secs += (System.nanoTime() - s0) / 1e9;
            accs[r] = Metrics.accuracy(last.solution(), test);
            if (last.privacy().epsilon() > eps) {
                throw new IllegalStateException("certified epsilon " + last.privacy().epsilon() + " above " + eps);
            }
        }
        secs += calibrationSeconds;
        double mean = java.util.Arrays.stream(accs).average().orElse(Double.NaN);
        double sd = Math.sqrt(java.util.Arrays.stream(accs).map(a -> (a - mean) * (a - mean)).sum()
                / Math.max(1, runs - 1));
        return new Row(eps, mean, sd, secs / runs, last);
    }

    private static void footer(PrintWriter o, double npAcc, double npSec) {
        o.printf("non-private SGD (same loop, no clipping/noise): accuracy %.4f, %.3f s per run%n", npAcc, npSec);
        o.println("Privacy: add/remove-one neighbours, Poisson sampling, clip 1.0; epsilon certified by the "
                + "accountant shown, never above the target.");
        o.println();
        o.println(WHAT_EPSILON_MEANS);
    }
}
