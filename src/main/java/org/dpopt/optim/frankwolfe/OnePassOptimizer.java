package org.dpopt.optim.frankwolfe;

import java.util.function.DoubleFunction;
import java.util.function.DoubleSupplier;
import org.dpopt.accounting.Calibration;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.ProblemShape;
import org.dpopt.optim.Diagnostic;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.RunParameters;
import org.dpopt.optim.RunPlan;
import org.dpopt.optim.core.BaseOptimizer;
import org.dpopt.optim.core.PrivateRun;
import org.ejml.data.DMatrixRMaj;

/**
 * What the one-pass methods ({@link VarianceReducedFrankWolfe}, {@link NoisyStochasticFrankWolfe})
 * share around their different steps: replace-one privacy, the {@link OnePassSchedule} from the builder's
 * settings, the calibration of one round's event by the accountant, the plan (the statement is the
 * parallel composition of the rounds, the data size must be exactly n) and the run's diagnostics.
 */
abstract class OnePassOptimizer<B extends OnePassBuilder<B, ?>> extends BaseOptimizer<B> {
    /** The builder's schedule, accountant and diagnostics settings. */
    final OnePassSettings settings;

    OnePassOptimizer(String name, B b) {
        this(name, NeighboringRelation.REPLACE_ONE, b);
    }

    /** An optimizer whose configuration (e.g. a practical schedule on sampled batches) has another relation. */
    OnePassOptimizer(String name, NeighboringRelation relation, B b) {
        super(name, relation, b);
        this.settings = b.settings();
    }

    /**
     * The configured schedule for a set of ℓ2 diameter {@code diam}, once the loss is checked exact and smooth.
     *
     * @param practicalPasses K &gt; 0: the practical preset with an automatic schedule is the multi-pass
     *                        schedule ({@link OnePassSchedule#multiPass}) with min(K, n) passes; 0: one pass
     */
    final OnePassSchedule schedule(ProblemShape shape, GeneralizedLinearLoss loss, PrivacyBudget budget, double diam,
            double diamFloor, int practicalPasses) {
        OnePassSchedule.requireExactSmoothLoss(loss, settings.accountant(), name());
        return OnePassSchedule.of(settings, shape, loss, budget.epsilon(), diam, diamFloor, practicalPasses);
    }

    /** The noise multiplier z at which the accountant certifies the rounds of {@code roundEvent(z)} within the budget. */
    final double calibrate(DoubleFunction<DpEvent> roundEvent, PrivacyBudget budget) {
        return Calibration.noiseMultiplier(settings.accountant(), roundEvent, budget.epsilon(), budget.delta(), 1e-6);
    }

    /** The parameters every one-pass plan publishes (shape, accountant, schedule). */
    final RunParameters.Builder parameters(ProblemShape shape, OnePassSchedule s) {
        return s.put(FrankWolfeSupport.parameters(shape, settings.accountant()));
    }

    /** The plan: the rounds of {@code round} in parallel, the given parameters, exactly n rows. */
    final RunPlan plan(ProblemShape shape, PrivacyBudget budget, OnePassSchedule s, DpEvent round,
            RunParameters parameters, Object detail) {
        RunPlan plan = RunPlan.builder(name(), shape)
                .privacy(s.statement(round), relation(), settings.accountant(), budget)
                .parameters(parameters)
                .exactSizeRequired(true)
                .detail(detail)
                .build();
        // the report is cached; computing it now refuses, before any data is read, a statement the
        // accountant cannot bound (several passes of parallel rounds under advanced composition)
        plan.report();
        return plan;
    }

    /** Reports the non-private diagnostics at the output (when on) and finishes the run. */
    final OptimizationResult finish(PrivateRun run, OnePassSchedule s, DMatrixRMaj out, DoubleSupplier gap) {
        FrankWolfeSupport.diagnose(run, settings.population(), out, s.gradientEvaluations(),
                Diagnostic.FRANK_WOLFE_GAP, gap);
        return run.finish(out);
    }
}
