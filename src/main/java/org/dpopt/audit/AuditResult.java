package org.dpopt.audit;

import java.util.Arrays;
import org.dpopt.optim.core.Mutation;

/**
 * The outcome of one audit. Every bound is stated with the confidence 1 − α and the number of runs it
 * rests on.
 *
 * @param algorithm the optimizer's CLI name
 * @param design the configuration's name
 * @param mutant the deliberate bug audited ({@link Mutation#NONE} for the real algorithm)
 * @param statistic the statistic's name
 * @param whiteBox whether the statistic read the intermediate releases
 * @param relation the neighbouring relation of the pair
 * @param canary the pair's description
 * @param epsilon the claimed ε (the run's report)
 * @param delta the claimed δ, at which every bound is stated
 * @param accountant the claim's accountant
 * @param ledger the recorded ledger's description
 * @param alpha α: each bound holds with probability ≥ 1 − α
 * @param runs the total number of runs (half on each dataset)
 * @param seed the audit's seed (run i on dataset b uses a seed derived from it)
 * @param canaries k, the trials per run (one per canary; the counts are over trials)
 * @param fixedThreshold the test fixed before the runs (every run evaluates it), or NaN when the threshold
 *                       is chosen on the selection half
 * @param clopperPearson the (ε, δ) bound: threshold chosen on the selection half, evaluated on the other
 * @param gaussianDp the Gaussian-DP estimate, with its own threshold chosen the same way
 * @param ledgerTest the ledger test at the Gaussian-DP evaluation's error-rate bounds
 * @param family the recorded ledger's family (for its trade-off curve)
 * @param seconds wall-clock time of the runs and the analysis
 * @param scoresWith the scores of the trials on D′, in run order (run i's k trials at [ik, ik + k))
 * @param scoresWithout the scores of the trials on D, in run order
 */
public record AuditResult(String algorithm, String design, Mutation mutant, String statistic, boolean whiteBox,
        String relation, String canary, double epsilon, double delta, String accountant, String ledger, double alpha,
        int runs, long seed, int canaries, double fixedThreshold, EpsilonLowerBound.Evaluation clopperPearson, EpsilonLowerBound.Evaluation gaussianDp,
        LedgerFamily.Result ledgerTest, LedgerFamily family, double seconds,
        double[] scoresWith, double[] scoresWithout) {

    /** ε_lower: the Clopper–Pearson (ε, δ) lower bound at confidence 1 − α. */
    public double epsilonLower() {
        return clopperPearson.epsilon();
    }

    /** ε_lower / ε claimed. */
    public double tightness() {
        return epsilonLower() / epsilon;
    }

    /** The audit's verdict on the claim: ε_lower ≤ claimed ε. */
    public boolean passed() {
        return epsilonLower() <= epsilon;
    }

    /** True if the error rates are compatible with the recorded ledger at its recorded noise. */
    public boolean ledgerConsistent() {
        return ledgerTest.consistent();
    }

    /** True if either test rejects the claim (for a correct implementation: probability ≤ 2α). */
    public boolean flagged() {
        return !passed() || !ledgerConsistent();
    }

    /** The confidence 1 − α. */
    public double confidence() {
        return 1 - alpha;
    }

    /** The μ a Gaussian mechanism with the claimed (ε, δ) has (reference for the GDP estimate). */
    public double muClaimed() {
        return GaussianDp.muOf(epsilon, delta);
    }

    /** Runs per dataset in the evaluation half (all of them for a fixed test). */
    public int evaluationRunsPerSide() {
        int perSide = runs / 2;
        return Double.isNaN(fixedThreshold) ? perSide - perSide / 2 : perSide;
    }

    /** Trials per dataset in the evaluation half. */
    public long evaluationTrialsPerSide() {
        return (long) evaluationRunsPerSide() * canaries;
    }

    /**
     * The analysis of the first {@code perSide} runs of each dataset, k trials each: with a fixed test,
     * that test on every trial; otherwise the threshold chosen on the trials of the first half of the
     * runs and evaluated on the rest.
     *
     * @return {Clopper–Pearson evaluation, Gaussian-DP evaluation}
     */
    static EpsilonLowerBound.Evaluation[] analyse(double[] with, double[] without, int perSide, int k, double fixed,
            double alpha, double delta) {
        int m = perSide * k;
        if (!Double.isNaN(fixed)) {
            ErrorCounts c = ErrorCounts.of(Arrays.copyOf(with, m), Arrays.copyOf(without, m), fixed);
            EpsilonLowerBound.Evaluation e = EpsilonLowerBound.evaluate(fixed, c, alpha, delta);
            return new EpsilonLowerBound.Evaluation[] {e, e};
        }
        int sel = perSide / 2 * k;
        double[] sw = Arrays.copyOfRange(with, 0, sel);
        double[] so = Arrays.copyOfRange(without, 0, sel);
        double[] ew = Arrays.copyOfRange(with, sel, m);
        double[] eo = Arrays.copyOfRange(without, sel, m);
        return new EpsilonLowerBound.Evaluation[] {
            EpsilonLowerBound.split(sw, so, ew, eo, EpsilonLowerBound.Objective.CLOPPER_PEARSON, alpha, delta),
            EpsilonLowerBound.split(sw, so, ew, eo, EpsilonLowerBound.Objective.GAUSSIAN_DP, alpha, delta)};
    }

    /**
     * The audit as if it had stopped after its first {@code prefixRuns} runs: the same analysis (their
     * first half selects, their second half evaluates) on those runs only. Run i of each dataset has the
     * same seed in every audit of the configuration, so this is exactly the smaller audit.
     *
     * @param prefixRuns even, at least 8, at most {@link #runs()}
     */
    public AuditResult prefix(int prefixRuns) {
        if (prefixRuns < 8 || prefixRuns > runs || prefixRuns % 2 != 0) {
            throw org.dpopt.linalg.Checks.fail("prefix runs", "even, in [8, " + runs + "]", prefixRuns);
        }
        int perSide = prefixRuns / 2;
        double[] w = Arrays.copyOf(scoresWith, perSide * canaries);
        double[] o = Arrays.copyOf(scoresWithout, perSide * canaries);
        EpsilonLowerBound.Evaluation[] e = analyse(w, o, perSide, canaries, fixedThreshold, alpha, delta);
        return new AuditResult(algorithm, design, mutant, statistic, whiteBox, relation, canary, epsilon, delta,
                accountant, ledger, alpha, prefixRuns, seed, canaries, fixedThreshold, e[0], e[1],
                family.test(e[1].fprUpper(), e[1].fnrUpper()), family, Double.NaN, w, o);
    }

    /** ε_lower of {@link #prefix}{@code (prefixRuns)} (0 below 8 runs), without the other tests. */
    public double epsilonLowerAt(int prefixRuns) {
        int perSide = Math.min(runs, prefixRuns) / 2;
        if (perSide / 2 < 2) {
            return 0;
        }
        return analyse(scoresWith, scoresWithout, perSide, canaries, fixedThreshold, alpha, delta)[0].epsilon();
    }

    /**
     * The empirical trade-off curve on the evaluation half: for each distinct threshold (at most
     * {@code points}), the pair {false-positive rate, false-negative rate}, by increasing threshold.
     */
    public double[][] empiricalTradeOff(int points) {
        int sel = (int) (scoresWith.length - evaluationTrialsPerSide());
        double[] ew = Arrays.copyOfRange(scoresWith, sel, scoresWith.length);
        double[] eo = Arrays.copyOfRange(scoresWithout, sel, scoresWithout.length);
        double[] pooled = new double[ew.length + eo.length];
        System.arraycopy(ew, 0, pooled, 0, ew.length);
        System.arraycopy(eo, 0, pooled, ew.length, eo.length);
        Arrays.sort(pooled);
        int stride = Math.max(1, pooled.length / Math.max(2, points));
        java.util.List<double[]> out = new java.util.ArrayList<>();
        out.add(new double[] {1, 0});
        for (int i = 0; i < pooled.length; i += stride) {
            ErrorCounts c = ErrorCounts.of(ew, eo, pooled[i]);
            out.add(new double[] {c.falsePositiveRate(), c.falseNegativeRate()});
        }
        out.add(new double[] {0, 1});
        return out.toArray(new double[0][]);
    }

    @Override
    public String toString() {
        return String.format("%s%s [%s, %s]: eps=%.3f eps_lower=%.3f (tightness %.2f) mu_lower=%.3f (eps_gdp=%.3f) "
                + "ledger eps=%.3f %s; %d runs, alpha=%.3g", algorithm,
                mutant == Mutation.NONE ? "" : " MUTANT " + mutant.cliName(), design, statistic, epsilon,
                epsilonLower(), tightness(), gaussianDp.mu(), gaussianDp.epsilonGdp(), ledgerTest.epsilon(),
                ledgerConsistent() ? "consistent" : "VIOLATED", runs, alpha)
                + (canaries > 1 ? ", " + canaries + " canaries per run" : "");
    }
}
