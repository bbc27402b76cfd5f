package org.dpopt.optim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.DpEvents;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.ParallelComposedEvent;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.accounting.PrivacyLedger;
import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Problem;
import org.dpopt.oracle.GllBisectionProx;
import org.ejml.data.DMatrixRMaj;

/**
 * What {@link VarianceReducedFrankWolfe} and {@link NoisyStochasticFrankWolfe} share: the checks and the
 * round schedule (theory-notes/frank-wolfe.md §3–4, from public constants only), the anchor gradient of
 * a round, and the parallel composition of the rounds' ledgers.
 */
final class OnePassFrankWolfe {
    private OnePassFrankWolfe() {
    }

    /**
     * The schedule: R rounds of m steps with constant step μ, anchor batch b₀, difference batch b, and
     * L = L₀R, the ℓ2 Lipschitz constant of f.
     */
    record Schedule(int rounds, int steps, double mu, int anchor, int batch, double lipschitz) {
    }

    /**
     * The configuration a one-pass builder hands to its optimizer (rounds, stepSize, stepsPerRound and
     * shuffleBlock at 0, NaN, 0, 0 mean automatic; a null domain means the problem's).
     */
    record Settings<D>(IntFunction<D> domain, int rounds, double stepSize, int stepsPerRound,
            PrivacyAccountant accountant, boolean diagnostics, Dataset population, boolean shuffle, int shuffleBlock) {

        /** The configured constraint set for dimension d, or null for the problem's domain. */
        D domainFor(int d) {
            return domain == null ? null : domain.apply(d);
        }

        /** The shuffle block: the configured one, else {@link FrankWolfeSupport#autoBlock} of the batch. */
        int block(int batch) {
            return shuffleBlock > 0 ? shuffleBlock : FrankWolfeSupport.autoBlock(batch);
        }
    }

    /**
     * Refuses a non-smooth loss, a loss whose derivative is inexact (the difference-batch sensitivity
     * rests on the smoothness bound) and an accountant for another relation than replace-one.
     */
    static void requireExactSmoothLoss(GeneralizedLinearLoss loss, PrivacyAccountant accountant, String algorithm) {
        if (!Double.isFinite(loss.scalarSmoothness())) {
            throw Checks.fail("loss", "smooth (finite second-derivative bound) for " + algorithm, loss.name());
        }
        if (loss instanceof GllBisectionProx) {
            // its derivative is exact only to ±α/2, so differences are not bounded by β·|Δu| alone
            throw Checks.fail("loss", "a GLL with an exact derivative for " + algorithm
                    + " (the difference-batch sensitivity rests on the smoothness bound)", loss.name());
        }
        if (accountant.relation() != NeighboringRelation.REPLACE_ONE) {
            throw Checks.fail("accountant relation", "REPLACE_ONE", accountant.relation());
        }
    }

    /**
     * The schedule for the configured rounds, step size and steps per round (0, NaN, 0: defaults
     * R = ⌈(nε)^{1/3}⌉, μ = 1/R, m = ⌈L/(βμ·max(diam, diamFloor))⌉ clamped to [1, n]), b₀ the largest anchor
     * that fits n records and b = ⌈b₀βμ·diam/L⌉.
     */
    static Schedule schedule(Settings<?> settings, Problem problem, GeneralizedLinearLoss loss, double epsilon,
            double diam, double diamFloor) {
        int rounds = settings.rounds();
        double stepSize = settings.stepSize();
        int stepsPerRound = settings.stepsPerRound();
        int n = problem.size();
        double rn = problem.data().rowNormBound();
        double lip = loss.scalarLipschitz() * rn;
        double beta = Math.max(loss.scalarSmoothness() * rn * rn, 1e-300);
        int r = rounds > 0 ? rounds : (int) Math.ceil(Math.cbrt(n * epsilon));
        double mu = !Double.isNaN(stepSize) ? stepSize : 1.0 / r;
        int m = stepsPerRound > 0 ? stepsPerRound
                : (int) Math.max(1, Math.min(n, Math.ceil(lip / (beta * mu * Math.max(diam, diamFloor)))));
        double ratio = beta * mu * diam / lip; // b = ⌈b₀·ratio⌉
        int b0 = VarianceReducedFrankWolfe.largestAnchor(n, r, m, ratio);
        if (b0 < 1) {
            throw Checks.fail("dataset size n", "at least rounds*(1 + (m-1)*ceil(ratio)) = "
                    + (long) r * (1 + (long) (m - 1) * (long) Math.ceil(ratio)) + " for R = " + r + ", m = " + m, n);
        }
        int b = (int) Math.max(1, Math.ceil(b0 * ratio));
        return new Schedule(r, m, mu, b0, b, lip);
    }

    /** The statement ParallelComposed(R × round), normalized. */
    static DpEvent statement(int rounds, DpEvent round) {
        List<DpEvent> parts = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            parts.add(round);
        }
        return DpEvents.normalize(new ParallelComposedEvent(parts));
    }

    /**
     * Sets est to the anchor gradient (1/b₀) Σ ∇f(w; z) over the records perm[pos], …, perm[pos + b₀ − 1]
     * (each told to the visitor, if any) and returns the next read position.
     */
    static int anchorGradient(Dataset data, GeneralizedLinearLoss loss, int[] perm, int pos, int anchor,
            DMatrixRMaj w, DMatrixRMaj est, IntConsumer visitor) {
        java.util.Arrays.fill(est.data, 0.0);
        double inv0 = 1.0 / anchor;
        for (int a = 0; a < anchor; a++) {
            int i = perm[pos++];
            if (visitor != null) {
                visitor.accept(i);
            }
            data.addScaledRow(i, loss.derivative(data.dot(i, w), data.label(i)) * inv0, est);
        }
        return pos;
    }

    /** The run's ledger: the rounds' ledgers in parallel composition. */
    static DpEvent recordRounds(List<DpEvent> roundEvents) {
        PrivacyLedger ledger = new PrivacyLedger();
        ledger.record(new ParallelComposedEvent(roundEvents));
        return ledger.build();
    }

    /** The schedule parameters every one-pass result reports. */
    static Map<String, Double> scheduleParameters(int rounds, int steps, double mu, int anchor, int batch,
            int recordsUsed, boolean shuffle, int block) {
        Map<String, Double> params = new HashMap<>();
        params.put("rounds", (double) rounds);
        params.put("steps_per_round", (double) steps);
        params.put("step_size", mu);
        params.put("anchor_batch", (double) anchor);
        params.put("difference_batch", (double) batch);
        params.put("records_used", (double) recordsUsed);
        params.put("shuffle_block", shuffle ? (double) block : 0.0);
        return params;
    }
}
