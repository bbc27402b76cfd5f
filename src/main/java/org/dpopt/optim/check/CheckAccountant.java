package org.dpopt.optim.check;

import java.util.List;
import java.util.Optional;
import org.dpopt.accounting.ComposedEvent;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.DpEvents;
import org.dpopt.accounting.EpsilonDeltaEvent;
import org.dpopt.accounting.ForwardingAccountant;
import org.dpopt.accounting.PrivacyReport;
import org.dpopt.linalg.Checks;
import org.dpopt.optim.RunPlan;

/**
 * The accountant of a checked plan: the trained plan's accountant for the trained statement A, plus the
 * check's pure ε₀ by basic composition — A is (ε_A(δ), δ)-DP, the check (ε₀, 0)-DP, so their composition
 * is (ε_A(δ) + ε₀, δ)-DP whatever A is (a parallel composition, a solver's failure charge, a shuffled
 * sampler's bound). That can only over-state ε against a tight composition, which would cost a second
 * accounting of A; at the trained plan's δ its own report is reused. Any other event is answered by the
 * trained accountant unchanged. Immutable.
 */
final class CheckAccountant extends ForwardingAccountant {
    private final RunPlan trained;
    private final double epsilon0;
    private final DpEvent checked;

    /**
     * @param trained the trained plan (a private one)
     * @param epsilon0 ε₀ of the check
     */
    CheckAccountant(RunPlan trained, double epsilon0) {
        super(trained.accountant());
        this.trained = trained;
        this.epsilon0 = Checks.positive("epsilon0", epsilon0);
        this.checked = DpEvents.normalize(statement(trained.statement(), epsilon0));
    }

    /** Composed[A, (ε₀, 0)-DP], the statement of a checked plan. */
    static DpEvent statement(DpEvent trainedStatement, double epsilon0) {
        return new ComposedEvent(List.of(trainedStatement, new EpsilonDeltaEvent(epsilon0, 0)));
    }

    private boolean isChecked(DpEvent event) {
        return DpEvents.normalize(Checks.notNull("event", event)).equals(checked);
    }

    @Override
    public Optional<String> unsupportedReason(DpEvent event) {
        return inner().unsupportedReason(isChecked(event) ? trained.statement() : event);
    }

    @Override
    public double epsilon(DpEvent event, double delta) {
        return isChecked(event) ? trainedReport(delta).epsilon() + epsilon0 : inner().epsilon(event, delta);
    }

    @Override
    public double delta(DpEvent event, double epsilon) {
        if (!isChecked(event)) {
            return inner().delta(event, epsilon);
        }
        return epsilon < epsilon0 ? 1.0 : inner().delta(trained.statement(), epsilon - epsilon0);
    }

    @Override
    public PrivacyReport report(DpEvent event, double delta) {
        if (!isChecked(event)) {
            return inner().report(event, delta);
        }
        PrivacyReport a = trainedReport(delta);
        // a lower bound on A's ε stays one on the composition, which releases A's output
        return new PrivacyReport(a.epsilon() + epsilon0, a.epsilonLower(), delta, a.accountant(), a.relation(), event,
                a.bound(), a.notes()).withNote("constant check: its epsilon0 = " + epsilon0
                        + " added to the trained run's by basic composition");
    }

    private PrivacyReport trainedReport(double delta) {
        return delta == trained.budget().delta() ? trained.report() : inner().report(trained.statement(), delta);
    }
}
