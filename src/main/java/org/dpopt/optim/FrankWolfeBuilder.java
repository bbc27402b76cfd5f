package org.dpopt.optim;

import java.util.function.IntFunction;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;

/**
 * The setters shared by the builders of the Frank–Wolfe family: the constraint set, the accountant, the
 * non-private diagnostics and the population sample. Every setter validates.
 *
 * @param <D> the kind of constraint set (a {@code Polytope} or an {@code LpBall})
 * @param <B> the concrete builder, returned by every setter
 */
abstract class FrankWolfeBuilder<D, B extends FrankWolfeBuilder<D, B>> {
    IntFunction<D> domain;
    PrivacyAccountant accountant;
    boolean diagnostics = true;
    Dataset population;

    FrankWolfeBuilder(PrivacyAccountant defaultAccountant) {
        this.accountant = defaultAccountant;
    }

    @SuppressWarnings("unchecked")
    final B self() {
        return (B) this;
    }

    /**
     * The constraint set W: a polytope for the polytope methods, an ℓp ball for noisy SFW (default: the
     * problem's domain, which must then be of that kind).
     */
    public B domain(D set) {
        Checks.notNull("domain", set);
        this.domain = d -> set;
        return self();
    }

    /**
     * The constraint set as a function of the data dimension d (e.g. {@code d -> Polytopes.l1Ball(d, r)}
     * or {@code d -> LpBall.effective(1, d, r)}).
     */
    public B domain(IntFunction<D> byDimension) {
        this.domain = Checks.notNull("domain", byDimension);
        return self();
    }

    /**
     * The accountant (replace-one; default advanced composition with the optimal bound for the
     * report-noisy-max methods, RDP with the improved conversion for noisy SFW).
     */
    public B accountant(PrivacyAccountant a) {
        this.accountant = Checks.notNull("accountant", a);
        return self();
    }

    /** Whether to compute the non-private diagnostics (two extra data passes). Default true. */
    public B diagnostics(boolean on) {
        this.diagnostics = on;
        return self();
    }

    /**
     * A large sample from the data distribution (synthetic data with a known population): its risk
     * at the output is reported as the non-private diagnostic {@code population_risk}.
     */
    public B populationSample(Dataset sample) {
        this.population = Checks.notNull("populationSample", sample);
        return self();
    }
}
