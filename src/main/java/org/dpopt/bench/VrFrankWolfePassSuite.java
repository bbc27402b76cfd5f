package org.dpopt.bench;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dpopt.data.Synthetic;
import org.dpopt.geometry.Polytopes;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.frankwolfe.VarianceReducedFrankWolfe;
import org.ejml.data.DMatrixRMaj;

/**
 * {@code dpopt bench --suite vr-fw-pass}: one full run of the variance-reduced private Frank–Wolfe
 * (one pass over the data; default shuffled blocks, storage order, and a row-level permutation) against
 * one plain full-gradient pass, n = 10⁶ (quick: 10⁵), d = 100, logistic, ℓ1 ball of radius 10. Each
 * repetition times a plain pass, the VR run and another plain pass back to back and records the ratio
 * to the mean of the two plain passes (robust to load changes on a shared machine); the median ratio is
 * reported. JMH: {@code VrFrankWolfePassBenchmark}.
 */
final class VrFrankWolfePassSuite implements BenchSuite {

    @Override
    public Map<String, Object> run(Path out, boolean quick, PrintWriter progress) throws Exception {
        int n = quick ? 100_000 : 1_000_000;
        int d = 100;
        int reps = quick ? 3 : 7;
        Problem p = Problem.of(Synthetic.logistic(n, Synthetic.plantedVector(d, 2.0, Rngs.seeded(1)), Rngs.seeded(2))
                .data(), Losses.logistic(), Polytopes.l1Ball(10.0));
        PrivacyBudget budget = PrivacyBudget.of(1, 1e-6);
        String[] names = {"default", "storage-order", "row-permutation"};
        VarianceReducedFrankWolfe[] algs = {
            VarianceReducedFrankWolfe.builder().passes(1).diagnostics(false).build(),
            VarianceReducedFrankWolfe.builder().passes(1).diagnostics(false).shuffle(false).build(),
            VarianceReducedFrankWolfe.builder().passes(1).diagnostics(false).shuffleBlock(1).build()};
        DMatrixRMaj w = new DMatrixRMaj(d, 1);
        w.data[0] = 1;
        DMatrixRMaj g = new DMatrixRMaj(d, 1);
        StringBuilder csv = new StringBuilder("variant,rep,vr_ms,plain_ms,ratio\n");
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("n", n);
        s.put("d", d);
        double[] medians = new double[names.length];
        for (int a = 0; a < algs.length; a++) {
            double[] ratio = new double[reps];
            for (int r = -1; r < reps; r++) {
                long t0 = System.nanoTime();
                p.fullGradient(w, g);
                long t1 = System.nanoTime();
                algs[a].optimize(p, budget, Rngs.seeded(r + 10));
                long t2 = System.nanoTime();
                p.fullGradient(w, g);
                long t3 = System.nanoTime();
                if (r >= 0) {
                    double plain = ((t1 - t0) + (t3 - t2)) / 2e6;
                    double vr = (t2 - t1) / 1e6;
                    ratio[r] = vr / plain;
                    csv.append(names[a]).append(',').append(r).append(',').append(vr).append(',').append(plain)
                            .append(',').append(ratio[r]).append('\n');
                }
            }
            double[] sorted = ratio.clone();
            Arrays.sort(sorted);
            medians[a] = sorted[reps / 2];
            s.put(names[a] + " median ratio (min..max)",
                    String.format("%.2f (%.2f..%.2f)", medians[a], sorted[0], sorted[reps - 1]));
            progress.println(names[a] + ": median ratio " + medians[a]);
            progress.flush();
        }
        Files.writeString(out.resolve("vr-fw-pass.csv"), csv.toString());
        double[] x = {0, 1, 2};
        Plots.line(out.resolve("vr-fw-pass.png"), "VR Frank-Wolfe pass / plain gradient pass (n=" + n + ", d=" + d
                + "): default, storage order, row permutation", "variant", "median time ratio",
                List.of(new Plots.Series("ratio", x, medians)), false, false);
        return s;
    }
}
