package org.dpopt.bench;

import static org.dpopt.bench.BenchStats.middle;
import static org.dpopt.bench.BenchStats.min;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dpopt.data.Dataset;
import org.dpopt.data.Synthetic;
import org.dpopt.linalg.RowKernels;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.GllKernels;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.sgd.NoisySgd;
import org.dpopt.optim.sgd.NonPrivateSgd;
import org.dpopt.oracle.DatasetBatches;
import org.dpopt.sampling.PlannedPoissonSampler;
import org.dpopt.sampling.PoissonSampler;
import org.ejml.data.DMatrixRMaj;

/**
 * {@code dpopt bench --suite perf}: the speed of the training kernels, each as a ratio to a baseline
 * timed in the same JVM, repetitions alternating so that a load change on a shared machine hits both:
 * one DP-SGD epoch (Poisson, expected batch 256, per-example clipping, logistic, the RDP report) against
 * one non-private mini-batch epoch and against one sequential full-gradient pass; the full pass in ns per
 * example×feature (the row-by-row reference loop; the sequential pass; {@code Problem.fullGradient} with the
 * default thread count; the parallel pass on 2 threads, the same bits as the sequential one); the full pass with each row-kernel implementation called directly (scalar, vector with the
 * same bits, reordered vector dot; {@link RowKernels}); bytes allocated per DP-SGD step (whole loop, and
 * the batch kernel alone); and, when the shared Adult file is present, the
 * {@code seconds} of {@code dpopt train --algorithm dp-sgd} (ε = 1, 30 epochs, B = 256) in a child JVM.
 */
final class PerfSuite implements BenchSuite {
    private static final String[] ROWS = {"dp_sgd_epoch", "non_private_epoch", "full_pass_reference",
        "full_pass", "full_pass_default_threads", "full_pass_2t"};


    @Override
    public Map<String, Object> run(Path out, boolean quick, PrintWriter progress) throws Exception {
        int n = quick ? 50_000 : 1_000_000;
        int d = 100;
        int reps = quick ? 3 : 7;
        Problem problem = BenchStats.logisticProblem(n, d, progress);
        Dataset data = problem.data();
        double[][] t = new double[ROWS.length][reps];
        long[] allocated = new long[reps];
        for (int r = 0; r < reps; r++) {
            oneRep(problem, r, t, allocated);
            progress.printf("rep %d: dp-sgd %.3f s, non-private %.3f s, full pass %.3f s (reference %.3f s), "
                    + "default threads %.3f s, 2 threads %.3f s%n", r, t[0][r], t[1][r], t[3][r], t[2][r], t[4][r], t[5][r]);
            progress.flush();
        }
        long steps = (long) Math.ceil(n / 256.0);
        Map<String, Object> s = summary(n, d, t, allocated, steps);
        s.put("dataset_batches_bytes_per_step", batchKernelBytesPerStep(data));
        s.putAll(BatchKernelTimes.run(data, reps, progress));
        s.putAll(rowKernelTimes(data, reps, quick ? 1 : 5, progress));
        List<Double> adult = adult(quick ? 1 : 3, progress);
        if (!adult.isEmpty()) {
            s.put("adult_dp_sgd_train_seconds_median", middle(adult.stream().mapToDouble(x -> x).toArray()));
        } else {
            s.put("adult_dp_sgd_train_seconds_median", "not run: " + RealDataSuite.dataDir()
                    .resolve("adult_train.csv") + " absent");
        }
        write(out, n, t, allocated, steps, adult);
        return s;
    }

    private static void oneRep(Problem problem, int r, double[][] t, long[] allocated) {
        NoisySgd dp = EpochPair.dpSgd();
        NonPrivateSgd plain = EpochPair.nonPrivate();
        PrivacyBudget budget = EpochPair.BUDGET;
        Dataset data = problem.data();
        GeneralizedLinearLoss gll = Losses.logistic();
        DMatrixRMaj w = Synthetic.plantedVector(data.dimension(), 1.0, Rngs.seeded(100 + r));
        DMatrixRMaj g = new DMatrixRMaj(data.dimension(), 1);
        long a0 = allocatedBytes();
        long t0 = System.nanoTime();
        dp.optimize(problem, budget, Rngs.seeded(r));
        t[0][r] = seconds(t0);
        allocated[r] = allocatedBytes() - a0;
        t0 = System.nanoTime();
        plain.optimize(problem, budget, Rngs.seeded(r));
        t[1][r] = seconds(t0);
        t0 = System.nanoTime();
        referencePass(data, gll, w, g);
        t[2][r] = seconds(t0);
        t0 = System.nanoTime();
        g.zero();
        GllKernels.addGradient(data, gll, w, data.size(), g, 1);
        t[3][r] = seconds(t0);
        t0 = System.nanoTime();
        problem.fullGradient(w, g);
        t[4][r] = seconds(t0);
        g.zero();
        t0 = System.nanoTime();
        GllKernels.addGradient(data, gll, w, data.size(), g, 2);
        t[5][r] = seconds(t0);
    }

    /** Bytes allocated per {@link DatasetBatches#addBatch} (the kernel alone), after a warm-up run. */
    private static double batchKernelBytesPerStep(Dataset data) {
        double perStep = Double.NaN;
        for (int rep = 0; rep < 3; rep++) {
            DatasetBatches b = new DatasetBatches(data, Losses.logistic());
            b.open(PlannedPoissonSampler.of(PoissonSampler.epochs(256, 1, data.size())), data.size(),
                    Rngs.seeded(rep));
            DMatrixRMaj w = new DMatrixRMaj(data.dimension(), 1);
            DMatrixRMaj sum = new DMatrixRMaj(data.dimension(), 1);
            int steps = (int) Math.min(2000, data.size() / 256);
            long a0 = allocatedBytes();
            for (int t = 0; t < steps; t++) {
                b.addBatch(t, w, 1.0, sum);
            }
            perStep = (allocatedBytes() - a0) / (double) steps;
        }
        return perStep;
    }

    /** Rows of the row-kernel comparison (160 MB at d = 100: larger than any cache). */
    private static final int KERNEL_ROWS = 200_000;

    /**
     * The full pass (dot, φ′, axpy per row) over a flat copy of the first rows, with each implementation of
     * {@link RowKernels} called directly (scalar loops; vector kernels with the same bits; the reordered
     * vector dot), alternating within every repetition (each timing the mean of several passes): ns per
     * example×feature and the scalar ÷ vector ratios. Without the Vector API module only the scalar row is run, and the summary says why.
     */
    private static Map<String, Object> rowKernelTimes(Dataset data, int reps, int passes, PrintWriter progress) {
        int rows = Math.min(KERNEL_ROWS, data.size());
        int d = data.dimension();
        double[] x = new double[rows * d];
        double[] y = new double[rows];
        for (int i = 0; i < rows; i++) {
            data.copyRow(i, x, i * d);
            y[i] = data.label(i);
        }
        double[] w = Synthetic.plantedVector(d, 1.0, Rngs.seeded(5)).data;
        boolean vector = RowKernels.vectorAvailable();
        String[] names = {"scalar", "vector", "reordered"};
        double[][] t = new double[3][reps];
        double check = 0;
        for (int r = 0; r < reps; r++) {
            for (int k = 0; k < (vector ? 3 : 1); k++) {
                long t0 = System.nanoTime();
                for (int p = 0; p < passes; p++) {
                    check += flatPass(k, x, y, w, rows, d);
                }
                t[k][r] = seconds(t0) / passes;
            }
            progress.printf("row kernels rep %d: scalar %.4f s, vector %.4f s, reordered %.4f s%n", r, t[0][r], t[1][r],
                    t[2][r]);
        }
        double perCell = 1e9 / ((double) rows * d);
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("row_kernels_rows", rows);
        s.put("row_kernels_in_use", RowKernels.kernel().name());
        for (int k = 0; k < 3; k++) {
            s.put("row_kernels_" + names[k] + "_ns_per_example_feature", k == 0 || vector ? middle(t[k]) * perCell
                    : "not run: start the JVM with --add-modules jdk.incubator.vector");
        }
        if (vector) {
            s.put("row_kernels_ratio_scalar_to_vector", middle(t[0]) / middle(t[1]));
            s.put("row_kernels_ratio_scalar_to_vector_of_minimums", min(t[0]) / min(t[1]));
            s.put("row_kernels_ratio_scalar_to_reordered", middle(t[0]) / middle(t[2]));
        }
        s.put("row_kernels_checksum", check);
        return s;
    }

    private static double flatPass(int kernel, double[] x, double[] y, double[] w, int rows, int d) {
        return kernel == 0 ? scalarPass(x, y, w, rows, d) : kernel == 1 ? vectorPass(x, y, w, rows, d)
                : reorderedPass(x, y, w, rows, d);
    }

    // one method per kernel, so that each loop is compiled for its own kernel
    private static double scalarPass(double[] x, double[] y, double[] w, int rows, int d) {
        GeneralizedLinearLoss gll = Losses.logistic();
        double[] g = new double[d];
        for (int i = 0; i < rows; i++) {
            double z = RowKernels.scalarDot(x, i * d, w, 0, d);
            RowKernels.scalarAxpy(gll.derivative(z, y[i]) / rows, x, i * d, g, 0, d);
        }
        return g[0];
    }

    private static double vectorPass(double[] x, double[] y, double[] w, int rows, int d) {
        GeneralizedLinearLoss gll = Losses.logistic();
        double[] g = new double[d];
        for (int i = 0; i < rows; i++) {
            double z = RowKernels.vectorDot(x, i * d, w, 0, d);
            RowKernels.vectorAxpy(gll.derivative(z, y[i]) / rows, x, i * d, g, 0, d);
        }
        return g[0];
    }

    private static double reorderedPass(double[] x, double[] y, double[] w, int rows, int d) {
        GeneralizedLinearLoss gll = Losses.logistic();
        double[] g = new double[d];
        for (int i = 0; i < rows; i++) {
            double z = RowKernels.reorderedDot(x, i * d, w, 0, d);
            RowKernels.vectorAxpy(gll.derivative(z, y[i]) / rows, x, i * d, g, 0, d);
        }
        return g[0];
    }

    /** The row-by-row loop (dot, φ′, axpy per row) that the full-pass kernels replace: the baseline. */
    private static void referencePass(Dataset data, GeneralizedLinearLoss gll, DMatrixRMaj w, DMatrixRMaj out) {
        out.zero();
        int n = data.size();
        for (int i = 0; i < n; i++) {
            data.addScaledRow(i, gll.derivative(data.dot(i, w), data.label(i)) / n, out);
        }
    }

    private static Map<String, Object> summary(int n, int d, double[][] t, long[] allocated, long steps) {
        double[] m = new double[ROWS.length];
        for (int k = 0; k < ROWS.length; k++) {
            m[k] = middle(t[k]);
        }
        double perCell = 1e9 / ((double) n * d);
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("n", n);
        s.put("d", d);
        s.put("dp_sgd_epoch_median_s", m[0]);
        s.put("non_private_epoch_median_s", m[1]);
        s.put("ratio_dp_sgd_to_non_private_epoch", m[0] / m[1]);
        s.put("ratio_dp_sgd_epoch_to_full_pass", m[0] / m[3]);
        s.put("ratio_dp_sgd_to_non_private_epoch_of_minimums", min(t[0]) / min(t[1]));
        s.put("ratio_dp_sgd_epoch_to_full_pass_of_minimums", min(t[0]) / min(t[3]));
        s.put("full_pass_reference_ns_min", min(t[2]) * perCell);
        s.put("full_pass_ns_min", min(t[3]) * perCell);
        s.put("full_pass_default_threads_ns_min", min(t[4]) * perCell);
        s.put("full_pass_2_threads_ns_min", min(t[5]) * perCell);
        s.put("full_pass_reference_ns_per_example_feature", m[2] * perCell);
        s.put("full_pass_ns_per_example_feature", m[3] * perCell);
        s.put("full_pass_default_threads", GllKernels.passThreads());
        s.put("full_pass_default_threads_ns_per_example_feature", m[4] * perCell);
        s.put("full_pass_2_threads_ns_per_example_feature", m[5] * perCell);
        s.put("speedup_full_pass_vs_reference", m[2] / m[3]);
        s.put("speedup_2_threads_vs_1_thread", m[3] / m[5]);
        s.put("dp_sgd_bytes_allocated_per_step_median", middle(Arrays.stream(allocated).asDoubleStream()
                .toArray()) / steps);
        return s;
    }

    private static void write(Path out, int n, double[][] t, long[] allocated, long steps, List<Double> adult)
            throws Exception {
        StringBuilder csv = new StringBuilder("rep");
        for (String row : ROWS) {
            csv.append(',').append(row).append("_seconds");
        }
        csv.append(",dp_sgd_bytes_per_step,adult_train_seconds\n");
        int reps = t[0].length;
        double[] xs = new double[reps];
        for (int r = 0; r < reps; r++) {
            xs[r] = r;
            csv.append(r);
            for (double[] row : t) {
                csv.append(',').append(row[r]);
            }
            csv.append(',').append((double) allocated[r] / steps).append(',')
                    .append(r < adult.size() ? adult.get(r).toString() : "").append('\n');
        }
        Files.writeString(out.resolve("perf.csv"), csv.toString());
        List<Plots.Series> series = new ArrayList<>();
        for (int k = 0; k < ROWS.length; k++) {
            series.add(new Plots.Series(ROWS[k].replace('_', ' '), xs, t[k]));
        }
        Plots.line(out.resolve("perf.png"), "Kernel times, n=" + n + ", d=100 (same JVM, alternating)",
                "repetition", "seconds", series, false, true);
    }

    /** The {@code seconds} of dp-sgd training on the shared Adult file in child JVMs (empty if absent). */
    private static List<Double> adult(int reps, PrintWriter progress) throws Exception {
        Path f = RealDataSuite.dataDir().resolve("adult_train.csv");
        List<Double> out = new ArrayList<>();
        if (!Files.isRegularFile(f)) {
            progress.println("adult: " + f + " absent, row not run");
            return out;
        }
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Pattern sec = Pattern.compile("\"seconds\"\\s*:\\s*([0-9.eE+-]+)");
        for (int r = 0; r < reps; r++) {
            List<String> cmd = new ArrayList<>(List.of(java.toString()));
            if (ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()) {
                cmd.addAll(List.of("--add-modules", "jdk.incubator.vector")); // the child uses this JVM's kernels
            }
            if (ManagementFactory.getRuntimeMXBean().getInputArguments()
                    .contains("-XX:+UseTransparentHugePages")) {
                cmd.add("-XX:+UseTransparentHugePages"); // and this JVM's pages, as the launcher sets them
            }
            cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "org.dpopt.cli.Main", "train",
                    "--algorithm", "dp-sgd", "--data", f.toString(), "--epsilon", "1", "--delta", "1e-5", "--epochs", "30", "--batch-size", "256", "--seed", String.valueOf(r), "--json"));
            Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String json = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            Matcher m = sec.matcher(json);
            if (p.waitFor() != 0 || !m.find()) {
                throw new IllegalStateException("adult training run failed: " + json);
            }
            out.add(Double.parseDouble(m.group(1)));
            progress.printf("adult rep %d: %.3f s%n", r, out.get(r));
            progress.flush();
        }
        return out;
    }

    private static long allocatedBytes() {
        java.lang.management.ThreadMXBean b = ManagementFactory.getThreadMXBean();
        return b instanceof com.sun.management.ThreadMXBean s ? s.getCurrentThreadAllocatedBytes() : -1;
    }

    private static double seconds(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }
}
