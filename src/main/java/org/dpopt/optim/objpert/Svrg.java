package org.dpopt.optim.objpert;

import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;
import org.dpopt.linalg.Vectors;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.oracle.DataPasses;
import org.ejml.data.DMatrixRMaj;

/**
 * SVRG (Johnson &amp; Zhang, "Accelerating Stochastic Gradient Descent using Predictive Variance
 * Reduction", NeurIPS 2013) on a {@link PerturbedObjective} J = (1/n)Σ jᵢ with
 * jᵢ(w) = φ(⟨w,xᵢ⟩,yᵢ) + ⟨b,w⟩ + λ‖w‖², each jᵢ β′ = (β + 2λ)-smooth, J μ = 2λ strongly convex;
 * projected steps when W ≠ ℝ^d (Prox-SVRG, Xiao &amp; Zhang, "A Proximal Stochastic Gradient Method
 * with Progressive Variance Reduction", SIAM J. Optim. 2014, arXiv:1403.4699).
 *
 * <p>Epoch s: snapshot w̃, full gradient ḡ = ∇J(w̃) (n evaluations, one full pass); k inner
 * steps w ← Π_W(w − η[(φ′(⟨w,xᵢ⟩) − φ′(⟨w̃,xᵢ⟩))xᵢ + 2λ(w − w̃) + ḡ]) with i uniform; the next
 * snapshot is the average of the k inner iterates. Unconstrained: η = 1/(10β′), k = ⌈20β′/λ⌉ and
 * Johnson–Zhang's contraction ρ = 1/(μη(1−2β′η)k) + 2β′η/(1−2β′η) = 0.5625. Constrained:
 * η = 1/(20β′), k = ⌈50β′/λ⌉ and Xiao–Zhang's ρ = 1/(μη(1−4β′η)k) + 4β′η(k+1)/((1−4β′η)k) ≈ 0.5.
 * Either way E[J(w̃ₛ)] − J* ≤ ρˢ(J(w̃₀) − J*).
 *
 * <p>After every full gradient the certificate {@link PerturbedObjective#suboptimalityBound} is
 * evaluated for free; the result is the snapshot with the smallest certified bound. With
 * {@code earlyStop} the run ends as soon as that bound is ≤ α (the epoch count then depends on the
 * data); without it all {@code epochs} epochs run.
 *
 * <p>Data access is {@link DataPasses} only, so every engine runs this same code: the full gradients are
 * passes; the inner steps' indices are drawn here from the run's generator, one per step in step order,
 * in chunks, and each chunk's rows come from {@link DataPasses#rows} (in memory the dataset itself; on a
 * cluster one job returning just those rows). Without early stopping, whether an epoch runs is known in
 * advance, so its first chunk is drawn just before the anchor pass that precedes it (the pass draws
 * nothing: the generator's sequence is unchanged) and fetched by that same pass
 * ({@link DataPasses#meanGradientAndRows}): one pass per epoch and no other job when k fits a chunk.
 * The snapshot's φ′(⟨w̃,xᵢ⟩) is recomputed from the fetched
 * row rather than kept for all n rows from the full pass: the same function of the same bits, so the
 * same value, without an n-long array (which a distributed engine would have to collect). An inner step
 * therefore counts as two evaluations. The steps themselves are allocation-free.
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
     * The most row ids drawn (and rows fetched) at a time: a chunk of inner steps fetches at most
     * {@value} / (d + 1) rows (≤ 128 MB of features), so the driver's memory does not grow with k.
     */
    static final long FETCH_DOUBLES = 1L << 24;

    /**
     * Runs SVRG from Π_W(0).
     *
     * @param obj the objective (its passes give the full gradients and the single rows of the inner steps)
     * @param alpha target certified suboptimality (used only for early stopping)
     * @param epochs epoch budget ≥ 1
     * @param earlyStop stop once the certified bound is ≤ α
     * @param rng index sampling
     */
    static Result solve(PerturbedObjective obj, double alpha, int epochs, boolean earlyStop,
            UniformRandomProvider rng) {
        Checks.notNull("objective", obj);
        return solve(obj, alpha, epochs, earlyStop, rng, (int) Math.max(1, FETCH_DOUBLES / (obj.dimension() + 1)));
    }

    /** As {@link #solve(PerturbedObjective, double, int, boolean, UniformRandomProvider)}, ≤ chunk ids at a time. */
    static Result solve(PerturbedObjective obj, double alpha, int epochs, boolean earlyStop,
            UniformRandomProvider rng, int chunk) {
        Checks.notNull("objective", obj);
        Checks.positive("alpha", alpha);
        Checks.atLeastOne("epochs", epochs);
        Checks.notNull("rng", rng);
        Checks.atLeastOne("chunk", chunk);
        Schedule sc = schedule(obj.lambda(), obj.smoothness(), obj.domain().isWholeSpace());
        long n = obj.size();
        int d = obj.dimension();
        long[] ids = new long[(int) Math.min(sc.innerSteps(), chunk)];
        DMatrixRMaj snap = new DMatrixRMaj(d, 1);
        obj.domain().project(snap);
        DMatrixRMaj full = new DMatrixRMaj(d, 1);
        DMatrixRMaj w = new DMatrixRMaj(d, 1);
        DMatrixRMaj avg = new DMatrixRMaj(d, 1);
        DMatrixRMaj work = new DMatrixRMaj(d, 1);
        DMatrixRMaj best = new DMatrixRMaj(d, 1);
        double[] history = new double[epochs + 1];
        // without early stopping epoch s runs iff s < epochs, so its first chunk of indices can be drawn
        // before the anchor pass that precedes it (a pass draws nothing) and its rows fetched by that pass
        DataPasses.Rows first = anchor(obj, snap, full, earlyStop ? null : ids, sc.innerSteps(), rng);
        long evals = n;
        double bestGap = obj.suboptimalityBound(snap, full, work);
        history[0] = bestGap;
        Vectors.copy(snap, best);
        int run = 0;
        while (run < epochs && !(earlyStop && bestGap <= alpha)) {
            innerLoop(obj, sc, snap, full, w, avg, rng, ids, first);
            evals += 2 * sc.innerSteps();
            Vectors.copy(avg, snap);
            run++;
            first = anchor(obj, snap, full, earlyStop || run == epochs ? null : ids, sc.innerSteps(), rng);
            evals += n;
            double gap = obj.suboptimalityBound(snap, full, work);
            history[run] = gap;
            if (gap < bestGap) {
                bestGap = gap;
                Vectors.copy(snap, best);
            }
        }
        return new Result(best, bestGap, run, evals, Arrays.copyOf(history, run + 1));
    }

    /**
     * The anchor's full gradient ∇J(snap) into full; if ids is non-null, the next epoch's first chunk of
     * indices is drawn into it first and the rows are returned from the same pass (else null).
     */
    private static DataPasses.Rows anchor(PerturbedObjective obj, DMatrixRMaj snap, DMatrixRMaj full, long[] ids,
            long k, UniformRandomProvider rng) {
        if (ids == null) {
            obj.gradient(snap, full);
            return null;
        }
        int m = (int) Math.min(ids.length, k);
        draw(ids, m, obj.size(), rng);
        return obj.gradientAndRows(snap, full, ids, m);
    }

    /** ids[0..m) ← m uniform row indices in [0, n), in order: {@code nextInt(n)} whenever n fits an int. */
    private static void draw(long[] ids, int m, long n, UniformRandomProvider rng) {
        for (int t = 0; t < m; t++) {
            ids[t] = n <= Integer.MAX_VALUE ? rng.nextInt((int) n) : rng.nextLong(n);
        }
    }

    /**
     * One epoch's k inner steps from the snapshot; the average of the inner iterates goes to avg. The
     * indices are drawn in chunks of at most ids.length, in step order (so the generator's sequence is
     * that of drawing one index per step), and each chunk's rows are fetched at once; the first chunk's
     * rows are {@code first} if non-null (already drawn and fetched by the anchor pass).
     */
    private static void innerLoop(PerturbedObjective obj, Schedule sc, DMatrixRMaj snap, DMatrixRMaj full,
            DMatrixRMaj w, DMatrixRMaj avg, UniformRandomProvider rng, long[] ids, DataPasses.Rows first) {
        GeneralizedLinearLoss loss = obj.loss();
        long n = obj.size();
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
        for (long done = 0; done < k; ) {
            int m = (int) Math.min(ids.length, k - done);
            DataPasses.Rows rows;
            if (done == 0 && first != null) {
                rows = first;
            } else {
                draw(ids, m, n, rng);
                rows = obj.passes().rows(ids, m);
            }
            Dataset data = rows.data();
            int[] at = rows.position();
            for (int t = 0; t < m; t++) {
                int i = at[t];
                double y = data.label(i);
                double delta = loss.derivative(data.dot(i, w), y) - loss.derivative(data.dot(i, snap), y);
                for (int j = 0; j < d; j++) {
                    ws[j] -= eta * (twoLambda * (ws[j] - ss[j]) + fs[j]);
                }
                data.addScaledRow(i, -eta * delta, w);
                obj.domain().project(w);
                for (int j = 0; j < d; j++) {
                    as[j] += ws[j];
                }
            }
            done += m;
        }
        Vectors.scale(1.0 / k, avg);
    }
}
