package org.dpopt.data;

import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.PermutationSampler;
import org.dpopt.linalg.Checks;

/** Train/test splits: fixed row lists and seeded random splits. */
public final class Splits {
    private Splits() {
    }

    /** A train/test pair. */
    public record Split(Dataset train, Dataset test) {
    }

    /** Splits by a fixed list of test rows (0-based, as in {@code <name>_test_rows.txt}). */
    public static Split byTestRows(Dataset all, int[] testRows) {
        int n = all.size();
        boolean[] isTest = new boolean[n];
        for (int r : testRows) {
            if (r < 0 || r >= n) {
                throw Checks.fail("test row index", "in [0, " + n + ")", r);
            }
            isTest[r] = true;
        }
        int[] test = Arrays.stream(testRows).sorted().distinct().toArray();
        int[] train = new int[n - test.length];
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (!isTest[i]) {
                train[k++] = i;
            }
        }
        return new Split(all.subset(train), all.subset(test));
    }

    /** A seeded random split with the given test fraction in (0, 1). */
    public static Split random(Dataset all, double testFraction, UniformRandomProvider rng) {
        int n = all.size();
        int[] test = randomTestRows(n, testFraction, rng);
        int[] train = new int[n - test.length];
        int k = 0;
        int a = 0;
        for (int i = 0; i < n; i++) {
            if (a < test.length && test[a] == i) {
                a++;
            } else {
                train[k++] = i;
            }
        }
        return new Split(all.subset(train), all.subset(test));
    }

    /**
     * The test rows of {@link #random} for n rows, increasing: the first round(n·f) entries of a
     * uniformly random permutation of [0, n) drawn from rng. The train rows are the others, in increasing
     * order (so any engine that knows n, f and the split seed reproduces the split).
     */
    public static int[] randomTestRows(int n, double testFraction, UniformRandomProvider rng) {
        Checks.openUnit("testFraction", testFraction);
        int nTest = (int) Math.round(n * testFraction);
        if (nTest < 1 || nTest >= n) {
            throw Checks.fail("test-set size (n·testFraction)", "in [1, n-1]", nTest);
        }
        int[] perm = PermutationSampler.natural(n);
        PermutationSampler.shuffle(rng, perm);
        int[] test = Arrays.copyOfRange(perm, 0, nTest);
        Arrays.sort(test);
        return test;
    }
}
