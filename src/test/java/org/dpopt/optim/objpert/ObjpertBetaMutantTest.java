package org.dpopt.optim.objpert;

import static org.dpopt.optim.objpert.ObjPertFixtures.assertRefused;
import static org.dpopt.optim.objpert.ObjPertFixtures.classification;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpopt.geometry.ConvexSets;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.Param;
import org.dpopt.optim.Preset;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.RunPlan;
import org.dpopt.optim.core.Mutation;
import org.junit.jupiter.api.Test;

/** The objpert-beta audit mutant of both variants: λ so small that β = 20·ε·n·λ, the check skipped. */
class ObjpertBetaMutantTest {

    @Test
    void bothVariantsRunWithBetaAboveTheTheoremsLimit() {
        Problem p = Problem.of(classification(300, 4, 71), Losses.logistic(), ConvexSets.l2Ball(2));
        PrivacyBudget b = PrivacyBudget.of(1, 1e-5);
        check(ObjectivePerturbation.builder().mutation(Mutation.OBJPERT_BETA).build(), p, b, "eps*n*lambda");
        check(ApproximateObjectivePerturbation.builder().preset(Preset.PAPER).mutation(Mutation.OBJPERT_BETA).build(), p, b,
                "eps/2*n*lambda");
        // the honest optimizers refuse the mutants' λ
        double lam = ObjectivePerturbation.builder().mutation(Mutation.OBJPERT_BETA).build().plan(p.shape(), b)
                .parameters().real(Param.L2);
        assertRefused(ObjectivePerturbation.builder().lambda(lam).build(), p, b, "eps*n*lambda");
        double lam2 = ApproximateObjectivePerturbation.builder().preset(Preset.PAPER).mutation(Mutation.OBJPERT_BETA).build()
                .plan(p.shape(), b).parameters().real(Param.L2);
        assertRefused(ApproximateObjectivePerturbation.builder().preset(Preset.PAPER).lambda(lam2).build(), p, b, "eps/2*n*lambda");
    }

    private static void check(PrivateOptimizer mutant, Problem p, PrivacyBudget b, String limit) {
        RunPlan m = mutant.plan(p.shape(), b);
        double beta = m.parameters().real(Param.SMOOTHNESS);
        double lam = m.parameters().real(Param.L2);
        double eps = m.parameters().real(Param.PERTURBATION_EPSILON);
        double delta = m.parameters().real(Param.PERTURBATION_DELTA);
        assertEquals(20 * eps * 300 * lam, beta, 1e-12 * beta, limit);
        // σ_G calibrated as if ln(1 + β/Λ) were 0
        assertEquals(ObjectivePerturbationNoise.tightSigma(2, 0, eps, delta),
                m.parameters().real(Param.OBJECTIVE_SIGMA), 0, limit);
        OptimizationResult r = mutant.optimize(p, b, Rngs.seeded(1));
        assertTrue(r.privacy().notes().stream().anyMatch(x -> x.startsWith("MUTANT objpert-beta")),
                r.privacy().toString());
        assertEquals(m.statement(), r.ledger());
    }
}
