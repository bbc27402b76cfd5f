package org.dpopt.optim.frankwolfe;

import java.util.Arrays;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.data.Dataset;

/**
 * Adversarial replace-one neighbours for the sensitivity tests of the one-pass methods: a base dataset
 * of n small random rows, and for a victim record pairs of datasets that differ only there — either the
 * signed unit vectors ±e_k with the out-of-range labels −100 and +100 (so that the clamped squared
 * loss's derivative sits at −L₀ and +L₀), or random rows supplied by the test. Each pair is run through
 * a probe that forces identical choices on both datasets and returns the exact statistic before each
 * release; the largest change, call by call, is what the declared sensitivity must bound.
 */
final class AdversarialNeighbours {
    private final double[][] rows;
    private final double[] labels;
    private final UniformRandomProvider gen;

    /** Rows uniform in (−0.4, 0.4)^d (so ‖x‖₂ ≤ 1 for d ≤ 6) and labels uniform in [−1, 1], drawn from gen. */
    AdversarialNeighbours(int n, int d, UniformRandomProvider gen) {
        this.gen = gen;
        this.rows = new double[n][d];
        this.labels = new double[n];
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < d; k++) {
                rows[i][k] = (gen.nextDouble() - 0.5) * 0.8;
            }
            labels[i] = gen.nextDouble() * 2 - 1;
        }
    }

    /** The base dataset (declared row bound 1). */
    Dataset base() {
        return Dataset.of(rows, labels, 1.0);
    }

    /** Runs the algorithm with choices forced from {@code seed} and returns the statistic before each release. */
    interface Probe {
        List<double[]> releases(Dataset data, long seed);
    }

    /** Replaces row {@code victim} of both neighbours (and their labels) by random values drawn from gen. */
    interface RandomVictim {
        void replace(double[] rowA, double[] rowB, double[] labelsA, double[] labelsB, int victim,
                UniformRandomProvider gen);
    }

    /** A distance between the statistics of the two neighbours at one release. */
    interface Distance {
        double between(double[] a, double[] b);
    }

    /** max_j |a_j − b_j|, for score vectors. */
    static double maxAbs(double[] a, double[] b) {
        double worst = 0;
        for (int j = 0; j < a.length; j++) {
            worst = Math.max(worst, Math.abs(a[j] - b[j]));
        }
        return worst;
    }

    /** ‖a − b‖₂, for estimates. */
    static double l2(double[] a, double[] b) {
        double s = 0;
        for (int j = 0; j < a.length; j++) {
            s += (a[j] - b[j]) * (a[j] - b[j]);
        }
        return Math.sqrt(s);
    }

    /**
     * The largest change of the statistic over all releases, all variants (2d extreme ones, then
     * {@code randomVariants} random ones) and the given victims: element 0 over the first
     * {@code anchorVictims} victims, element 1 over the others. Variant v runs both neighbours with the
     * choice seed {@code seedOffset + v}.
     */
    double[] worstChange(List<Integer> victims, int anchorVictims, int randomVariants, RandomVictim random,
            Probe probe, Distance distance, long seedOffset) {
        int d = rows[0].length;
        double[] worst = new double[2];
        for (int v = 0; v < victims.size(); v++) {
            int victim = victims.get(v);
            for (int variant = 0; variant < 2 * d + randomVariants; variant++) {
                double[][] a = copy(rows);
                double[][] b = copy(rows);
                double[] ya = labels.clone();
                double[] yb = labels.clone();
                if (variant < 2 * d) {
                    extreme(a[victim], b[victim], variant);
                    ya[victim] = -100;
                    yb[victim] = 100;
                } else {
                    random.replace(a[victim], b[victim], ya, yb, victim, gen);
                }
                List<double[]> sa = probe.releases(Dataset.of(a, ya, 1.0), seedOffset + variant);
                List<double[]> sb = probe.releases(Dataset.of(b, yb, 1.0), seedOffset + variant);
                int slot = v < anchorVictims ? 0 : 1;
                for (int call = 0; call < sa.size(); call++) {
                    worst[slot] = Math.max(worst[slot], distance.between(sa.get(call), sb.get(call)));
                }
            }
        }
        return worst;
    }

    /** Both rows become ±e_{variant/2} (the sign by the parity of variant). */
    private static void extreme(double[] a, double[] b, int variant) {
        Arrays.fill(a, 0);
        Arrays.fill(b, 0);
        a[variant / 2] = (variant & 1) == 0 ? 1 : -1;
        b[variant / 2] = (variant & 1) == 0 ? 1 : -1;
    }

    /** A deep copy of a matrix. */
    static double[][] copy(double[][] m) {
        double[][] c = new double[m.length][];
        for (int i = 0; i < m.length; i++) {
            c[i] = m[i].clone();
        }
        return c;
    }
}
