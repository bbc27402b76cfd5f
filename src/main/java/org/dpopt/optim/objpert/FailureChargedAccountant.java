package org.dpopt.optim.objpert;

import java.util.List;
import org.dpopt.accounting.Bound;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.ForwardingAccountant;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.accounting.PrivacyReport;
import org.dpopt.linalg.Checks;

/**
 * An accountant for a mechanism M′ that equals an accounted mechanism M except on an event of
 * probability at most p under every dataset (a solver that may fail): if M is (ε, δ)-DP then M′ is
 * (ε, δ + (1 + e^ε)p)-DP, because P[M′(S) ∈ E] ≤ P[M(S) ∈ E] + p ≤ e^ε P[M(S′) ∈ E] + δ + p
 * ≤ e^ε (P[M′(S′) ∈ E] + p) + δ + p. The recorded event is M's; this accountant adds the failure
 * charge on top of the inner accountant's curve: δ′(ε) = δ(ε) + (1 + e^ε)p, and ε′(δ′) is the inner
 * ε at δ′ − (1 + e^ε′)p. Immutable.
 */
final class FailureChargedAccountant extends ForwardingAccountant {
    private final double failureProbability;
    private final double epsilonCap;

    /**
     * @param inner M's accountant
     * @param failureProbability p ∈ [0, 1)
     * @param epsilonCap the ε the plan was made for: answers up to it are charged (1 + e^cap)p
     */
    FailureChargedAccountant(PrivacyAccountant inner, double failureProbability, double epsilonCap) {
        super(inner);
        if (!(failureProbability >= 0 && failureProbability < 1)) {
            throw Checks.fail("failureProbability", "in [0, 1)", failureProbability);
        }
        this.failureProbability = failureProbability;
        this.epsilonCap = Checks.nonNegative("epsilonCap", epsilonCap);
    }

    /** The charge at the plan's ε. */
    double planCharge() {
        return ObjectivePerturbationNoise.failureCharge(epsilonCap, failureProbability);
    }

    @Override
    public double epsilon(DpEvent event, double delta) {
        return solve(event, delta)[0];
    }

    /**
     * {ε, charge}: the inner ε at δ − charge, with charge = (1 + e^max(ε, cap))p found by a monotone
     * fixed-point iteration ({+∞, NaN} if δ cannot cover the charge).
     */
    private double[] solve(DpEvent event, double delta) {
        Checks.delta("delta", delta);
        double used = planCharge();
        for (int k = 0; k < 200; k++) {
            if (!(delta - used > 0)) {
                break;
            }
            double eps = inner().epsilon(event, delta - used);
            double need = ObjectivePerturbationNoise.failureCharge(eps, failureProbability);
            if (need <= used) {
                return new double[] {eps, used};
            }
            used = need;
        }
        return new double[] {Double.POSITIVE_INFINITY, Double.NaN};
    }

    @Override
    public double delta(DpEvent event, double epsilon) {
        return Math.min(1, inner().delta(event, epsilon)
                + ObjectivePerturbationNoise.failureCharge(epsilon, failureProbability));
    }

    @Override
    public PrivacyReport report(DpEvent event, double delta) {
        double[] s = solve(event, delta);
        String note = "delta includes (1 + e^eps) p = " + (Double.isNaN(s[1]) ? planCharge() : s[1])
                + " for a solver failure of probability at most p = " + failureProbability + " on every dataset";
        if (Double.isInfinite(s[0])) {
            return new PrivacyReport(s[0], Double.NaN, delta, name(), relation(), event, Bound.UPPER, List.of(note));
        }
        PrivacyReport r = inner().report(event, delta - s[1]);
        return new PrivacyReport(r.epsilon(), r.epsilonLower(), delta, r.accountant(), r.relation(), r.event(),
                r.bound(), r.notes()).withNote(note);
    }
}
