package org.dpopt.optim.mirror;

import org.dpopt.geometry.MirrorMap;
import org.dpopt.linalg.Checks;
import org.dpopt.linalg.Vectors;
import org.dpopt.loss.Problem;
import org.ejml.data.DMatrixRMaj;

/**
 * Proximal near-stationarity of the empirical risk F̂ at a point w — a <em>non-private</em>
 * diagnostic that reads all the data (the measure Theorem 20 of Bassily, Guzmán, Menart, NeurIPS 2021,
 * arXiv:2107.05585, bounds; {@code theory-notes/mirror-descent.md §2}).
 *
 * <pre>
 *   ŵ = argmin_v F̂(v) + ρκ‖v − w‖²_p̃ = argmin_v F̂(v) + 2ρ ψ(v − w)
 *   gap = ‖w − ŵ‖_p̃,   stationarity = 2ρκ·gap
 * </pre>
 *
 * By optimality, 0 ∈ ∂F̂(ŵ) + 2ρ∇ψ(ŵ − w) and ‖2ρ∇ψ(ŵ − w)‖_q̃ = 2ρκ‖ŵ − w‖_p̃, so ŵ is within
 * {@code gap} of w and dist(0, ∂F̂(ŵ)) ≤ {@code stationarity}. For p̃ = 2 (κ = 1) the stationarity is
 * exactly ‖∇F̂_{1/(2ρ)}(w)‖₂, the gradient norm of the Moreau envelope with parameter 1/(2ρ) (Davis
 * and Drusvyatskiy, "Stochastic model-based minimization of weakly convex functions", SIAM J. Optim.
 * 2019, arXiv:1803.06523). The prox is taken over ℝ^d (the losses are Lipschitz everywhere).
 *
 * <p>Solver: composite mirror descent with the mirror map centred at w, which handles the ψ term
 * exactly: θ ← (θ − η_k g_k)/(1 + 2ρη_k), v = w + ∇ψ*(θ), with g_k ∈ ∂F̂(v_k), η_k = 2/(ρ(k + 1)),
 * and the k-weighted average; the objective is ρ-strongly convex when F̂ is ρ-weakly convex. The
 * better (by objective value) of the averaged and the last iterate is returned.
 */
public final class ProximalStationarity {
    private ProximalStationarity() {
    }

    /**
     * The diagnostic's output.
     *
     * @param gap ‖w − ŵ‖_p̃
     * @param stationarity 2ρκ·gap
     * @param proxPoint ŵ (approximate)
     */
    public record Result(double gap, double stationarity, DMatrixRMaj proxPoint) {
    }

    /**
     * Computes the diagnostic.
     *
     * @param problem the problem (its empirical risk is used)
     * @param map the geometry
     * @param rho ρ &gt; 0 (at least the loss's weak convexity)
     * @param w the point (not modified)
     * @param iterations solver iterations ≥ 1 (each one full gradient)
     */
    public static Result compute(Problem problem, MirrorMap map, double rho, DMatrixRMaj w, int iterations) {
        Checks.notNull("problem", problem);
        Checks.notNull("map", map);
        Checks.positive("rho", rho);
        Checks.atLeastOne("iterations", iterations);
        int d = problem.dimension();
        Checks.vector("w", w, d);
        if (map.dimension() != d) {
            throw Checks.fail("map dimension", "equal to the problem's " + d, map.dimension());
        }
        DMatrixRMaj theta = new DMatrixRMaj(d, 1);
        DMatrixRMaj v = w.copy();
        DMatrixRMaj g = new DMatrixRMaj(d, 1);
        DMatrixRMaj step = new DMatrixRMaj(d, 1);
        DMatrixRMaj avg = new DMatrixRMaj(d, 1);
        double weightSum = 0;
        for (int k = 1; k <= iterations; k++) {
            problem.fullGradient(v, g);
            double eta = 2 / (rho * (k + 1));
            Vectors.axpy(-eta, g, theta);
            Vectors.scale(1 / (1 + 2 * rho * eta), theta);
            map.conjugateGradient(theta, step);
            for (int j = 0; j < d; j++) {
                v.data[j] = w.data[j] + step.data[j];
            }
            weightSum += k;
            Vectors.scale((weightSum - k) / weightSum, avg);
            Vectors.axpy(k / weightSum, v, avg);
        }
        DMatrixRMaj best = objective(problem, map, rho, w, avg) <= objective(problem, map, rho, w, v) ? avg : v;
        double gap = map.distance(best, w);
        return new Result(gap, 2 * rho * map.kappa() * gap, best.copy());
    }

    /** F̂(v) + 2ρψ(v − w). */
    static double objective(Problem problem, MirrorMap map, double rho, DMatrixRMaj w, DMatrixRMaj v) {
        double dist = map.distance(v, w);
        return problem.empiricalRisk(v) + rho * map.kappa() * dist * dist;
    }
}
