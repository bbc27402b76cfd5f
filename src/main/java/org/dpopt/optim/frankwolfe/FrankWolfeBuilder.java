package org.dpopt.optim.frankwolfe;

import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.linalg.Checks;
import org.dpopt.optim.core.PresetBuilder;

/**
 * The settings every Frank–Wolfe builder shares, beyond the preset and the accountant: the constraint
 * set, of the kind the method's linear minimization needs (a polytope or an ℓp ball), and the population
 * sample of the non-private diagnostics.
 *
 * @param <B> the concrete builder, returned by every setter
 * @param <S> the kind of constraint set
 */
public abstract class FrankWolfeBuilder<B extends FrankWolfeBuilder<B, S>, S extends ConvexSet>
        extends PresetBuilder<B> {
    private S domain;
    private Dataset population;

    FrankWolfeBuilder(PrivacyAccountant defaultAccountant, String algorithm) {
        super(defaultAccountant, null, algorithm); // the relation follows the schedule: checked when planning
    }

    /**
     * The constraint set W (default: the problem's domain, which must then be of this kind), e.g.
     * {@code Polytopes.l1Ball(r)} for a polytope, {@code new LpBall(1.5, r)} or
     * {@code LpBall.effective(1, r)} for a ball.
     */
    public B domain(S set) {
        this.domain = Checks.notNull("domain", set);
        return self();
    }

    /**
     * A large sample from the data distribution (synthetic data with a known population): with
     * diagnostics on, its risk at the output is reported as the non-private diagnostic
     * {@code population_risk}.
     */
    public B populationSample(Dataset sample) {
        this.population = Checks.notNull("populationSample", sample);
        return self();
    }

    /** The configured constraint set, or null for the problem's domain. */
    S domain() {
        return domain;
    }

    /** The population sample, or null. */
    Dataset population() {
        return population;
    }
}
