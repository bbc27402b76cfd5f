package org.dpopt.optim.objpert;

import org.dpopt.linalg.Checks;
import org.dpopt.optim.Preset;
import org.dpopt.optim.core.OptimizerBuilder;

/**
 * The setters both objective-perturbation builders share: λ, the preset, a comparator radius, the σ_G
 * rule and the failure probability. Every setter validates; each optimizer's class documentation states
 * what the defaults are for it.
 *
 * @param <B> the concrete builder, returned by every setter
 */
abstract class PerturbationBuilder<B extends PerturbationBuilder<B>> extends OptimizerBuilder<B> {
    private double lambda = Double.NaN;
    private Preset preset = Preset.PRACTICAL;
    private double comparatorRadius = Double.NaN;
    private ObjectivePerturbationNoise.Rule noiseRule = ObjectivePerturbationNoise.Rule.TIGHT;
    private double failureProbability = Double.NaN;

    PerturbationBuilder() {
    }

    /**
     * λ &gt; 0 in λ‖w‖² (default: the theorem's value λ = (2L/M)√(2/n + 4d ln(1/δ)/(ε²n²)) at the (ε, δ)
     * the perturbation is given, M the domain's radius or a declared comparator radius; on an unbounded
     * domain without one, the practical preset's 10·β/(εn)).
     */
    public B lambda(double l) {
        this.lambda = Checks.positive("lambda", l);
        return self();
    }

    /**
     * {@link Preset#PRACTICAL} (default) or {@link Preset#PAPER}. The practical λ rule on an unbounded
     * domain is λ = 10·β/(εn), ten times the smallest value the smoothness condition allows (or the
     * theorem's formula at a declared {@link #comparatorRadius}, raised if needed to β/(εn)); the paper's
     * is the theorem as stated, which needs a bounded domain and refuses β &gt; εnλ. Each optimizer
     * documents what else its preset sets.
     */
    public B preset(Preset p) {
        this.preset = Checks.notNull("preset", p);
        return self();
    }

    /**
     * M &gt; 0 for the practical λ rule on an unbounded domain: a public bound on the norm of the
     * minimizer one competes with, λ then being the theorem's formula at M (default: none, λ =
     * 10·β/(εn)).
     */
    public B comparatorRadius(double m) {
        this.comparatorRadius = Checks.positive("comparatorRadius", m);
        return self();
    }

    /** TIGHT (default) or KST12. */
    public B noiseRule(ObjectivePerturbationNoise.Rule r) {
        this.noiseRule = Checks.notNull("noiseRule", r);
        return self();
    }

    /**
     * The probability p ∈ (0, 1) of a data-independent release that the plan charges (1 + e^ε)p of δ
     * for (default 1e-3·δ/(1 + e^ε)); it bounds ‖G‖ and so the solver's certified step count.
     */
    public B failureProbability(double pr) {
        this.failureProbability = Checks.openUnit("failureProbability", pr);
        return self();
    }

    /** The shared settings as set so far. */
    PerturbationSettings perturbationSettings() {
        return new PerturbationSettings(lambda, preset, comparatorRadius, noiseRule, failureProbability);
    }
}
