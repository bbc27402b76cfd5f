package org.dpopt.optim.objpert;

import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;
import org.dpopt.linalg.Vectors;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.ejml.data.DMatrixRMaj;

/**
 * SVRG (Johnson &amp; Zhang, "Accelerating Stochastic Gradient Descent using Predictive Variance
 * Reduction", NeurIPS 2013) on a {@link PerturbedObjective} J = (1/n)Σ jᵢ with
 * jᵢ(w) = φ(⟨w,xᵢ⟩,yᵢ) + ⟨b,w⟩ + λ‖w‖², each jᵢ β′ = (β + 2λ)-smooth, J μ = 2λ strongly convex;
 * projected steps when W ≠ ℝ^d (Prox-SVRG, Xiao &amp; Zhang, "A Proximal Stochastic Gradient Method
 * with Progressive Variance Reduction", SIAM J. Optim. 2014, arXiv:1403.4699).
 *
 * <p>Epoch s: snapshot w̃, full gradient ḡ = ∇J(w̃) (n evaluations, per-example φ′ cached); k inner
 * steps w ← Π_W(w − η[(φ′(⟨w,xᵢ⟩) − φ′(⟨w̃,xᵢ⟩))xᵢ + 2λ(w − w̃) + ḡ]) with i uniform; the next
 * snapshot is the average of the k inner iterates. Unconstrained: η = 1/(10β′), k = ⌈20β′/λ⌉ and
 * Johnson–Zhang's contraction ρ = 1/(μη(1−2β′η)k) + 2β′η/(1−2β′η) = 0.5625. Constrained:
 * η = 1/(20β′), k = ⌈50β′/λ⌉ and Xiao–Zhang's ρ = 1/(μη(1−4β′η)k) + 4β′η(k+1)/((1−4β′η)k) ≈ 0.5.
 * Either way E[J(w̃ₛ)] − J* ≤ ρˢ(J(w̃₀) − J*).
 *
 * <p>After every full gradient the certificate {@link PerturbedObjective#suboptimalityBound} is
 * evaluated for free; the result is the snapshot with the smallest certified bound. With
 * {@code earlyStop} the run ends as soon as that bound is ≤ α (the epoch count then depends on the
 * data); without it all {@code epochs} epochs run. Inner steps count as one evaluation each (the
 * snapshot's φ′ is cached). Hot loop allocation-free.
 */
final class Svrg {

    /**
     * Outcome of a run.
     *
     * @param w the returned snapshot (in W)
     * @param suboptimality its certified bound on J(w) − J*
     * @param epochs epochs run
     * @param gradientEvaluations per-example derivative evaluations
     * @param gapHistory certified bound after each full gradient (index 0: the starting point)
     */
    record Result(DMatrixRMaj w, double suboptimality, int epochs, long gradientEvaluations, double[] gapHistory) {
    }

    /** Inner-loop step size, length and contraction factor. */
    record Schedule(double stepSize, long innerSteps, double rho) {
    }

    /** The largest epoch budget planned. */
    static final int MAX_EPOCHS = 100_000;

    private Svrg() {
    }

    /** The lemma's step size, inner length and contraction for λ, the loss's smoothness β and W. */
    static Schedule schedule(double lambda, double beta, boolean unconstrained) {
        Checks.positive("lambda", lambda);
        Checks.nonNegative("beta", beta);
        double mu = 2 * lambda;
        double bp = beta + 2 * lambda;
        double eta = unconstrained ? 1 / (10 * bp) : 1 / (20 * bp);
        long k = (long) Math.ceil((unconstrained ? 20 : 50) * bp / lambda);
        double rho = unconstrained
                ? 1 / (mu * eta * (1 - 2 * bp * eta) * k) + 2 * bp * eta / (1 - 2 * bp * eta)
                : 1 / (mu * eta * (1 - 4 * bp * eta) * k) + 4 * bp * eta * (k + 1) / ((1 - 4 * bp * eta) * k);
        return new Schedule(eta, k, rho);
    }

    /**
     * Epoch budget E = ⌈ln(c·gap₀/(α·p))/ln(1/ρ)⌉ (refused above {@link #MAX_EPOCHS}: a cap would void
     * the failure bound). Start w₀ = Π_W(0);
     * gap₀ = min(G₀²/(4λ), G₀·(‖w₀‖ + M)) ≥ J(w₀) − J* with G₀ = L + B + 2λ‖w₀‖ ≥ ‖∇J(w₀)‖ for any linear
     * term of norm ‖b‖ ≤ B (strong convexity, resp. convexity and ‖w₀ − ŵ‖ ≤ ‖w₀‖ + M). The certificate
     * is at most c·(J(w) − J*) with c = κ = L_J/μ for W = ℝ^d and c = 1 + κ² otherwise, so by Markov's
     * inequality it still exceeds α after E epochs with probability at most p.
     *
     * @param lambda λ
     * @param beta β of the loss
     * @param lipschitz L of the loss
     * @param linearNormBound B ≥ ‖b‖
     * @param startNorm ‖w₀‖ = ‖Π_W(0)‖
     * @param radius M, the radius of W (+∞ for ℝ^d)
     * @param unconstrained W = ℝ^d
     * @param alpha α &gt; 0
     * @param failureProbability p ∈ (0, 1)
     */
    static int epochBudget(double lambda, double beta, double lipschitz, double linearNormBound, double startNorm,
            double radius, boolean unconstrained, double alpha, double failureProbability) {
        Checks.positive("alpha", alpha);
        Checks.openUnit("failureProbability", failureProbability);
        double grad = lipschitz + linearNormBound + 2 * lambda * startNorm;
        double gap0 = Math.min(grad * grad / (4 * lambda), grad * (startNorm + radius));
        double kappa = (beta + 2 * lambda) / (2 * lambda);
        double c = unconstrained ? kappa : 1 + kappa * kappa;
        double rho = schedule(lambda, beta, unconstrained).rho();
        // logs of the factors: α·p underflows for the p of a huge ε
        double e = Math.ceil((Math.log(c * gap0) - Math.log(alpha) - Math.log(failureProbability))
                / Math.log(1 / rho));
        if (!(e <= MAX_EPOCHS)) {
            throw Checks.fail("certified SVRG epoch budget", "at most " + MAX_EPOCHS + " (raise the accuracy alpha "
                    + "or lambda)", e);
        }
        return (int) Math.max(1, e);
    }

    /**
     * Runs SVRG from Π_W(0).
     *
     * @param obj the objective
     * @param data its rows (for the single-row inner steps)
     * @param alpha target certified suboptimality (used only for early stopping)
     * @param epochs epoch budget ≥ 1
     * @param earlyStop stop once the certified bound is ≤ α
     * @param rng index sampling
     */
    static Result solve(PerturbedObjective obj, Dataset data, double alpha, int epochs, boolean earlyStop,
            UniformRandomProvider rng) {
        Checks.notNull("objective", obj);
        Checks.positive("alpha", alpha);
        Checks.atLeastOne("epochs", epochs);
        Checks.notNull("rng", rng);
        Schedule sc = schedule(obj.lambda(), obj.smoothness(), obj.domain().isWholeSpace());
        int n = data.size();
        int d = obj.dimension();
        double[] snapDeriv = new double[n];
        DMatrixRMaj snap = new DMatrixRMaj(d, 1);
        obj.domain().project(snap);
        DMatrixRMaj full = new DMatrixRMaj(d, 1);
        DMatrixRMaj w = new DMatrixRMaj(d, 1);
        DMatrixRMaj avg = new DMatrixRMaj(d, 1);
        DMatrixRMaj work = new DMatrixRMaj(d, 1);
        DMatrixRMaj best = new DMatrixRMaj(d, 1);
        double[] history = new double[epochs + 1];
        obj.gradient(snap, full, snapDeriv);
        long evals = n;
        double bestGap = obj.suboptimalityBound(snap, full, work);
        history[0] = bestGap;
        Vectors.copy(snap, best);
        int run = 0;
        while (run < epochs && !(earlyStop && bestGap <= alpha)) {
            innerLoop(obj, data, sc, snap, full, snapDeriv, w, avg, rng);
            evals += sc.innerSteps();
            Vectors.copy(avg, snap);
            obj.gradient(snap, full, snapDeriv);
            evals += n;
            run++;
            double gap = obj.suboptimalityBound(snap, full, work);
            history[run] = gap;
            if (gap < bestGap) {
                bestGap = gap;
                Vectors.copy(snap, best);
            }
        }
        return new Result(best, bestGap, run, evals, Arrays.copyOf(history, run + 1));
    }

    /** One epoch's inner steps from the snapshot; the average of the inner iterates goes to avg. */
    private static void innerLoop(PerturbedObjective obj, Dataset data, Schedule sc, DMatrixRMaj snap,
            DMatrixRMaj full, double[] snapDeriv, DMatrixRMaj w, DMatrixRMaj avg, UniformRandomProvider rng) {
        GeneralizedLinearLoss loss = obj.loss();
        int n = data.size();
        int d = obj.dimension();
        double eta = sc.stepSize();
        long k = sc.innerSteps();
        double twoLambda = 2 * obj.lambda();
        double[] ws = w.data;
        double[] ss = snap.data;
        double[] fs = full.data;
        double[] as = avg.data;
        Vectors.copy(snap, w);
        Vectors.zero(avg);
        for (long t = 0; t < k; t++) {
            int i = rng.nextInt(n);
            double delta = loss.derivative(data.dot(i, w), data.label(i)) - snapDeriv[i];
            for (int j = 0; j < d; j++) {
                ws[j] -= eta * (twoLambda * (ws[j] - ss[j]) + fs[j]);
            }
            data.addScaledRow(i, -eta * delta, w);
            obj.domain().project(w);
            for (int j = 0; j < d; j++) {
                as[j] += ws[j];
            }
        }
        Vectors.scale(1.0 / k, avg);
    }
}
