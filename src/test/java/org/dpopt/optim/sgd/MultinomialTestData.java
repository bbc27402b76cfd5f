package org.dpopt.optim.sgd;

import org.dpopt.data.Dataset;

/** Synthetic k-class data shared by the k-class tests. */
public final class MultinomialTestData {
    private MultinomialTestData() {
    }

    /** k well-separated clusters in d dimensions (centres 0.6·e_c, spread 0.15), rows in the unit ball. */
    public static Dataset clusters(int n, int k, int d, long seed) {
        return MultinomialDpSgdTest.clusters(n, k, d, seed);
    }
}
