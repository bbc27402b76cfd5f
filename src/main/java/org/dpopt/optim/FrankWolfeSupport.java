package org.dpopt.optim;

import java.util.HashMap;
import java.util.Map;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.accounting.PrivacyReport;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.geometry.LpBall;
import org.dpopt.geometry.Polytope;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Problem;
import org.ejml.data.DMatrixRMaj;

/** Shared checks and non-private diagnostics of the Frank–Wolfe family. */
public final class FrankWolfeSupport {
    private FrankWolfeSupport() {
    }

    /**
     * The order in which a one-pass method reads the records: blocks of {@code block} consecutive rows
     * (the last may be shorter) in a uniformly random order drawn from rng (rows inside a block keep
     * their storage order), or plain storage order when {@code shuffle} is false. Either way a
     * data-independent partition. block = 1 is a uniformly random permutation; larger blocks keep
     * memory reads sequential within a block (much faster for large n) at the cost of correlation
     * inside a batch when the storage order is not random.
     */
    static int[] readOrder(int n, int block, boolean shuffle, UniformRandomProvider rng) {
        int[] order = new int[n];
        int nb = (n + block - 1) / block;
        int[] blocks = new int[nb];
        for (int b = 0; b < nb; b++) {
            blocks[b] = b;
        }
        for (int b = nb - 1; b > 0 && shuffle; b--) {
            int k = rng.nextInt(b + 1);
            int tmp = blocks[b];
            blocks[b] = blocks[k];
            blocks[k] = tmp;
        }
        int pos = 0;
        for (int b = 0; b < nb; b++) {
            int start = blocks[b] * block;
            int end = Math.min(n, start + block);
            for (int i = start; i < end; i++) {
                order[pos++] = i;
            }
        }
        return order;
    }

    /** The automatic shuffle block: min(64, max(1, batch/4)) rows (public: depends on sizes only). */
    static int autoBlock(int batch) {
        return Math.max(1, Math.min(64, batch / 4));
    }

    /** The problem's loss as a GLL, or a refusal naming the algorithm. */
    static GeneralizedLinearLoss requireGll(Problem problem, String algorithm) {
        Checks.notNull("problem", problem);
        if (problem.loss() instanceof GeneralizedLinearLoss g) {
            return g;
        }
        throw Checks.fail("loss", "a generalized linear loss for " + algorithm, problem.loss().name());
    }

    /** The polytope to use: the configured one, else the problem's domain, which must then be a polytope. */
    static Polytope resolvePolytope(Polytope configured, Problem problem, String algorithm) {
        Polytope p = configured;
        if (p == null) {
            if (!(problem.domain() instanceof Polytope q)) {
                throw Checks.fail("constraint set", "a polytope (l1 ball, simplex, vertex list) for " + algorithm,
                        problem.domain());
            }
            p = q;
        }
        if (p.dimension() != problem.dimension()) {
            throw Checks.fail("polytope dimension", "equal to the data dimension " + problem.dimension(),
                    p.dimension());
        }
        return p;
    }

    /** The ℓp ball to use: the configured one, else the problem's domain, which must then be an LpBall. */
    static LpBall resolveLpBall(LpBall configured, Problem problem, String algorithm) {
        if (configured != null) {
            return configured;
        }
        ConvexSet s = problem.domain();
        if (s instanceof LpBall b) {
            return b;
        }
        throw Checks.fail("constraint set", "an lp ball (1 < p <= 2) for " + algorithm, s);
    }

    /**
     * The Frank–Wolfe gap of the empirical risk, max_{v∈W} ⟨∇F̂(w), w − v⟩ (non-private: reads all
     * data). Zero exactly at stationary points of F̂ over W; for convex F̂ it bounds F̂(w) − min F̂.
     */
    public static double frankWolfeGap(Problem problem, Polytope set, DMatrixRMaj w) {
        DMatrixRMaj g = new DMatrixRMaj(problem.dimension(), 1);
        problem.fullGradient(w, g);
        return set.frankWolfeGap(g, w);
    }

    /** The Frank–Wolfe gap over an ℓp ball: ⟨∇F̂(w), w⟩ + r‖∇F̂(w)‖_q (non-private). */
    public static double frankWolfeGap(Problem problem, LpBall ball, DMatrixRMaj w) {
        DMatrixRMaj g = new DMatrixRMaj(problem.dimension(), 1);
        problem.fullGradient(w, g);
        DMatrixRMaj v = new DMatrixRMaj(problem.dimension(), 1);
        ball.lmo(g, v);
        double s = 0;
        for (int k = 0; k < problem.dimension(); k++) {
            s += g.data[k] * (w.data[k] - v.data[k]);
        }
        return s;
    }

    /**
     * The risk of w on a sample from the population (for synthetic data: a large fresh sample), the
     * "population risk" diagnostic. Non-private.
     */
    public static double populationRisk(Problem problem, Dataset populationSample, DMatrixRMaj w) {
        return problem.withData(populationSample).empiricalRisk(w);
    }

    /**
     * The accountant's report on the recorded ledger; refuses (as an internal error) a run whose ledger
     * spent more than the budget, which the up-front calibration rules out.
     */
    static PrivacyReport reportWithinBudget(PrivacyAccountant accountant, DpEvent recorded, PrivacyBudget budget) {
        PrivacyReport report = accountant.report(recorded, budget.delta());
        if (report.epsilon() > budget.epsilon() * (1 + 1e-9)) {
            throw new IllegalStateException("run spent epsilon " + report.epsilon() + " above the budget "
                    + budget.epsilon());
        }
        return report;
    }

    /**
     * A mutable map of the non-private risk diagnostics at w when {@code on}: {@code train_loss}, and
     * {@code population_risk} when a population sample is given (empty when off).
     */
    static Map<String, Double> riskDiagnostics(boolean on, Problem problem, Dataset population, DMatrixRMaj w) {
        Map<String, Double> diag = new HashMap<>();
        if (on) {
            diag.put("train_loss", problem.empiricalRisk(w));
            if (population != null) {
                diag.put("population_risk", populationRisk(problem, population, w));
            }
        }
        return diag;
    }
}
