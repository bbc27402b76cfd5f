package org.dpopt.bench;

import java.util.Arrays;
import java.util.List;

/**
 * Small summary statistics shared by the benchmark suites: mean, sample standard deviation, median (and
 * the sorted middle value), minimum, the least-squares slope of a log–log fit, and wall-clock timing of one
 * call. Not for library results.
 */
public final class BenchStats {
    private BenchStats() {
    }

    /** The arithmetic mean of v (NaN for an empty array). */
    public static double mean(double[] v) {
        double s = 0;
        for (double a : v) {
            s += a;
        }
        return s / v.length;
    }

    /** The sample standard deviation of v (divisor length − 1), 0 for fewer than two values. */
    public static double sd(double[] v) {
        double m = mean(v);
        double s = 0;
        for (double a : v) {
            s += (a - m) * (a - m);
        }
        return v.length > 1 ? Math.sqrt(s / (v.length - 1)) : 0;
    }

    /** The median of v (the mean of the two middle values for an even length); v is not changed. */
    public static double median(double[] v) {
        double[] c = v.clone();
        Arrays.sort(c);
        return c.length % 2 == 1 ? c[c.length / 2] : (c[c.length / 2 - 1] + c[c.length / 2]) / 2;
    }

    /**
     * The middle value of v once sorted (index length / 2: the median for an odd length, the upper of the
     * two middle values for an even one); v is not changed.
     */
    public static double middle(double[] v) {
        double[] c = v.clone();
        Arrays.sort(c);
        return c[c.length / 2];
    }

    /** The least value of v (NaN for an empty array). */
    public static double min(double[] v) {
        return Arrays.stream(v).min().orElse(Double.NaN);
    }

    /** Least-squares slope of log y against log x (y floored at 1e-12 so that a zero stays finite). */
    public static double logLogSlope(double[] x, double[] y) {
        int m = x.length;
        double mx = 0;
        double my = 0;
        for (int k = 0; k < m; k++) {
            mx += Math.log(x[k]) / m;
            my += logFloored(y[k]) / m;
        }
        double sxy = 0;
        double sxx = 0;
        for (int k = 0; k < m; k++) {
            double dx = Math.log(x[k]) - mx;
            sxy += dx * (logFloored(y[k]) - my);
            sxx += dx * dx;
        }
        return sxy / sxx;
    }

    private static double logFloored(double y) {
        return Math.log(Math.max(y, 1e-12));
    }

    /** The values of l as an array. */
    public static double[] toArray(List<Double> l) {
        return l.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /** Wall-clock seconds that one call of r takes. */
    public static double seconds(Runnable r) {
        long t0 = System.nanoTime();
        r.run();
        return (System.nanoTime() - t0) / 1e9;
    }

    /** 0, 1, …, n − 1 as doubles (a repetition axis for plots). */
    public static double[] indices(int n) {
        double[] xs = new double[n];
        Arrays.setAll(xs, i -> i);
        return xs;
    }

    /**
     * The synthetic logistic problem of the epoch benchmarks: n rows of dimension d from a planted
     * vector of norm 2, generator seeded with 1 (announced on {@code progress}).
     */
    public static org.dpopt.loss.Problem logisticProblem(int n, int d, java.io.PrintWriter progress) {
        org.apache.commons.rng.UniformRandomProvider rng = org.dpopt.noise.Rngs.seeded(1);
        progress.println("generating n=" + n + ", d=" + d);
        progress.flush();
        org.dpopt.data.Dataset data = org.dpopt.data.Synthetic.logistic(n,
                org.dpopt.data.Synthetic.plantedVector(d, 2.0, rng), rng).data();
        return org.dpopt.loss.Problem.of(data, org.dpopt.loss.Losses.logistic());
    }
}
