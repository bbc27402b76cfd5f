package org.dpopt.optim;

import java.util.Map;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.PrivacyReport;
import org.dpopt.loss.Problem;
import org.dpopt.loss.ProblemShape;
import org.ejml.data.DMatrixRMaj;

/**
 * TRANSITIONAL (removed when every optimizer runs on the run core): the pre-redesign entry points,
 * so that not-yet-ported optimizers keep compiling while families are ported one at a time.
 */
public abstract class LegacyOptimizer implements PrivateOptimizer {

    @Override
    public abstract OptimizationResult optimize(Problem problem, PrivacyBudget budget, UniformRandomProvider rng);

    @Override
    public abstract DpEvent privacyEvent(Problem problem, PrivacyBudget budget);

    @Override
    public RunPlan plan(ProblemShape shape, PrivacyBudget budget) {
        throw new IllegalStateException(name() + " is not yet ported to the run core");
    }

    @Override
    public OptimizationResult run(Problem problem, RunPlan plan, UniformRandomProvider rng) {
        throw new IllegalStateException(name() + " is not yet ported to the run core");
    }

    /** Builds a result the old way (string-keyed maps; unknown parameter keys are dropped). */
    protected OptimizationResult result(Problem problem, PrivacyBudget budget, DMatrixRMaj solution,
            PrivacyReport report, DpEvent ledger, long steps, long evals, Map<String, Double> params,
            Map<String, Double> diag) {
        RunParameters.Builder pb = RunParameters.builder().put(Param.STEPS, steps);
        for (Map.Entry<String, Double> e : params.entrySet()) {
            for (Param p : Param.values()) {
                if (p.key().equals(e.getKey()) && p.kind() != Param.Kind.BOOLEAN && p.kind() != Param.Kind.TEXT
                        && Double.isFinite(e.getValue())) {
                    pb.put(p, p.kind() == Param.Kind.INTEGER ? Math.rint(e.getValue()) : e.getValue());
                }
            }
        }
        Diagnostics.Builder db = Diagnostics.builder().put(Diagnostic.GRADIENT_EVALUATIONS, evals);
        for (Map.Entry<String, Double> e : diag.entrySet()) {
            for (Diagnostic k : Diagnostic.values()) {
                if (k.key().equals(e.getKey())) {
                    db.put(k, e.getValue());
                }
            }
        }
        RunPlan plan = RunPlan.builder(name(), problem.shape())
                .privacy(ledger, report.relation(), null, null)
                .parameters(pb.build()).build();
        java.util.Map<String, Double> allDiag = new java.util.HashMap<>(diag);
        allDiag.put("gradient_evaluations", (double) evals);
        return new OptimizationResult(solution, report, plan, ledger,
                org.dpopt.noise.NoiseSource.SEEDED_DESCRIPTION, db.build()).withLegacy(params, allDiag);
    }
}
