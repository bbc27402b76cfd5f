package org.dpopt.optim.core;

import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.ProblemShape;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.RunPlan;

/**
 * What every optimizer of the run core holds the same way: its catalog name, the neighbouring relation
 * its guarantee is stated under (fixed when it is built) and a copy of the builder it was built from
 * (its hyperparameters and shared run settings, handed out again by {@link #toBuilder()}). Subclasses
 * add {@code plan} and {@code run}.
 *
 * @param <B> the optimizer's builder
 */
public abstract class BaseOptimizer<B extends OptimizerBuilder<B>> implements PrivateOptimizer {
    /**
     * The settings this optimizer was built with: a private copy of its builder, never changed (subclasses
     * read their hyperparameters from it and never call its setters).
     */
    protected final B config;
    private final String name;
    private final NeighboringRelation relation;
    private final RunOptions options;

    /** For subclasses: the catalog name, the relation of the guarantee and the builder (copied). */
    protected BaseOptimizer(String name, NeighboringRelation relation, B builder) {
        this.name = Checks.notNull("name", name);
        this.relation = Checks.notNull("relation", relation);
        this.config = Checks.notNull("builder", builder).copy();
        this.options = config.runOptions();
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final NeighboringRelation relation() {
        return relation;
    }

    /**
     * Checks the arguments (a null shape, or a null budget where {@link #needsBudget()}, is refused) and
     * plans with {@link #planFor}.
     */
    @Override
    public final RunPlan plan(ProblemShape shape, PrivacyBudget budget) {
        Checks.notNull("shape", shape);
        if (needsBudget()) {
            Checks.notNull("budget", budget);
        }
        return planFor(shape, budget);
    }

    /** The plan for a checked shape and budget (from public constants only: never reads data). */
    protected abstract RunPlan planFor(ProblemShape shape, PrivacyBudget budget);

    /** False for an optimizer that ignores the budget (a non-private baseline); true by default. */
    protected boolean needsBudget() {
        return true;
    }

    /** The shared run settings (diagnostics, mutation, observer) every run of this optimizer uses. */
    protected final RunOptions options() {
        return options;
    }

    /** A builder initialised with this optimizer's settings (for sweeps). */
    public B toBuilder() {
        return config.copy();
    }
}
