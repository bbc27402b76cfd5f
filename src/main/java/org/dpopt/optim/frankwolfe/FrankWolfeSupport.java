package org.dpopt.optim.frankwolfe;

import java.util.function.DoubleSupplier;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.DpEvents;
import org.dpopt.accounting.EpsilonDeltaEvent;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.accounting.SelfComposedEvent;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.geometry.LpBall;
import org.dpopt.geometry.Polytope;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Loss;
import org.dpopt.loss.Problem;
import org.dpopt.loss.ProblemShape;
import org.dpopt.optim.Diagnostic;
import org.dpopt.optim.Param;
import org.dpopt.optim.RunParameters;
import org.dpopt.optim.core.PrivateRun;
import org.ejml.data.DMatrixRMaj;

/** Checks, shared parameters and the non-private diagnostics of the Frank–Wolfe family. */
final class FrankWolfeSupport {
    private FrankWolfeSupport() {
    }

    /**
     * k adaptive ε0-DP selections (report-noisy-max steps), normalized: the event of noisy Frank–Wolfe's
     * run and of one round of the variance-reduced method.
     */
    static DpEvent pureSelections(double eps0, long k) {
        return DpEvents.normalize(new SelfComposedEvent(new EpsilonDeltaEvent(eps0, 0), k));
    }

    /** The loss as a GLL, or a refusal naming the algorithm. */
    static GeneralizedLinearLoss requireGll(Loss loss, String algorithm) {
        if (loss instanceof GeneralizedLinearLoss g) {
            return g;
        }
        throw Checks.fail("loss", "a generalized linear loss for " + algorithm, loss.name());
    }

    /** Refuses an accountant for another relation than replace-one (all sensitivities here are replace-one). */
    static void requireReplaceOne(PrivacyAccountant accountant) {
        if (accountant.relation() != NeighboringRelation.REPLACE_ONE) {
            throw Checks.fail("accountant relation", "REPLACE_ONE", accountant.relation());
        }
    }

    /**
     * The polytope to use: the configured one, else the problem's domain, which must then be a polytope;
     * either way one that exists in the problem's dimension.
     */
    static Polytope polytope(Polytope configured, ProblemShape shape, String algorithm) {
        Polytope p = configured;
        if (p == null) {
            if (!(shape.domain() instanceof Polytope q)) {
                throw Checks.fail("constraint set", "a polytope (l1 ball, simplex, vertex list) for " + algorithm,
                        shape.domain());
            }
            p = q;
        }
        p.vertexCount(shape.dimension()); // refuses a vertex list of another dimension
        return p;
    }

    /** The ℓp ball to use: the configured one, else the problem's domain, which must then be an ℓp ball. */
    static LpBall lpBall(LpBall configured, ProblemShape shape, String algorithm) {
        if (configured != null) {
            return configured;
        }
        ConvexSet s = shape.domain();
        if (s instanceof LpBall b) {
            return b;
        }
        throw Checks.fail("constraint set", "an lp ball (1 < p <= 2) for " + algorithm, s);
    }

    /** The parameters every plan of the family starts with: n, d and the accountant. */
    static RunParameters.Builder parameters(ProblemShape shape, PrivacyAccountant accountant) {
        return RunParameters.builder()
                .put(Param.DATASET_SIZE, shape.size())
                .put(Param.DIMENSION, shape.dimension())
                .put(Param.ACCOUNTANT, accountant.name());
    }

    /**
     * The Frank–Wolfe gap of the empirical risk, max_{v∈W} ⟨∇F̂(w), w − v⟩ (non-private: reads all
     * data). Zero exactly at stationary points of F̂ over W; for convex F̂ it bounds F̂(w) − min F̂.
     */
    static double frankWolfeGap(Problem problem, Polytope set, DMatrixRMaj w) {
        DMatrixRMaj g = new DMatrixRMaj(problem.dimension(), 1);
        problem.fullGradient(w, g);
        return set.frankWolfeGap(g, w);
    }

    /** The Frank–Wolfe gap over an ℓp ball: ⟨∇F̂(w), w⟩ + r‖∇F̂(w)‖_q (non-private). */
    static double frankWolfeGap(Problem problem, LpBall ball, DMatrixRMaj w) {
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
     * The non-private diagnostics at the output w, computed only when diagnostics are on: the training
     * loss, the risk on a population sample (if one was given), the per-example gradient evaluations and
     * a Frank–Wolfe gap under {@code gapKey}.
     */
    static void diagnose(PrivateRun run, Dataset population, DMatrixRMaj w, long gradientEvaluations,
            Diagnostic gapKey, DoubleSupplier gap) {
        if (!run.diagnosticsOn()) {
            return;
        }
        Problem problem = run.problem();
        run.diagnose(Diagnostic.TRAIN_LOSS, problem.empiricalRisk(w));
        if (population != null) {
            run.diagnose(Diagnostic.POPULATION_RISK, problem.withData(population).empiricalRisk(w));
        }
        run.diagnose(Diagnostic.GRADIENT_EVALUATIONS, gradientEvaluations);
        run.diagnose(gapKey, gap.getAsDouble());
    }
}
