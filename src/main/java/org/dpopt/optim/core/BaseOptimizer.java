package org.dpopt.optim.core;

import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.linalg.Checks;
import org.dpopt.optim.PrivateOptimizer;

/**
 * What every optimizer of the run core holds the same way: its catalog name, the neighbouring relation
 * its guarantee is stated under (fixed when it is built) and the shared run settings its builder
 * collected. Subclasses add their hyperparameters, {@code plan} and {@code run}.
 */
public abstract class BaseOptimizer implements PrivateOptimizer {
    private final String name;
    private final NeighboringRelation relation;
    private final RunOptions options;

    /** For subclasses: the catalog name, the relation of the guarantee, the builder's run settings. */
    protected BaseOptimizer(String name, NeighboringRelation relation, RunOptions options) {
        this.name = Checks.notNull("name", name);
        this.relation = Checks.notNull("relation", relation);
        this.options = Checks.notNull("options", options);
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final NeighboringRelation relation() {
        return relation;
    }

    /** The shared run settings (diagnostics, mutation, observer) every run of this optimizer uses. */
    protected final RunOptions options() {
        return options;
    }
}
