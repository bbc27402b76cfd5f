package org.dpopt.bench;

import org.dpopt.accounting.RdpAccountant;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.sgd.NoisySgd;
import org.dpopt.optim.sgd.NonPrivateSgd;

/**
 * The two one-epoch runs that {@code dpsgd-epoch} and {@code perf} time against each other, on
 * {@link BenchStats#logisticProblem}'s synthetic data: DP-SGD (Poisson batches of expected size 256,
 * per-example clipping, noise multiplier 1, the RDP report, no diagnostics) and non-private mini-batch
 * SGD (batches of 256).
 */
final class EpochPair {
    private EpochPair() {
    }

    /** The (expected) batch size of both runs. */
    static final int BATCH_SIZE = 256;
    /** The number of features. */
    static final int DIMENSION = 100;
    /** The budget passed to both runs (the DP-SGD run has a fixed noise multiplier and reports its ε). */
    static final PrivacyBudget BUDGET = PrivacyBudget.of(1, 1e-6);

    /** The number of rows: 10⁶, or 5·10⁴ for a quick run. */
    static int rows(boolean quick) {
        return quick ? 50_000 : 1_000_000;
    }

    /** The number of alternating repetitions: 7, or 3 for a quick run. */
    static int repetitions(boolean quick) {
        return quick ? 3 : 7;
    }

    /** One DP-SGD epoch. */
    static NoisySgd dpSgd() {
        return NoisySgd.builder().batchSize(BATCH_SIZE).epochs(1).noiseMultiplier(1.0).diagnostics(false)
                .accountant(new RdpAccountant()).build();
    }

    /** One non-private mini-batch SGD epoch. */
    static NonPrivateSgd nonPrivate() {
        return NonPrivateSgd.builder().batchSize(BATCH_SIZE).epochs(1).build();
    }
}
