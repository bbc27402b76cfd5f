package org.dpopt.audit;

import java.util.List;
import java.util.Optional;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.DpEvents;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PoissonSampledEvent;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.accounting.TruncatedPoissonEvent;
import org.dpopt.linalg.Checks;

/**
 * The accountant the ledger test reads privacy profiles from: an exact one for ledgers without
 * subsampling (the PLD accountant answers Gaussian compositions with the exact curve at no cost) and
 * a fast valid upper bound (RDP) for subsampled ledgers, whose PLD takes ~0.1 s per query and would
 * make the test's hundreds of queries slow. Any valid upper bound keeps the ledger test valid
 * ({@link LedgerFamily}); a looser one only makes it less powerful.
 */
final class CurveAccountant implements PrivacyAccountant {
    private final PrivacyAccountant exact;
    private final PrivacyAccountant sampled;

    CurveAccountant(PrivacyAccountant exact, PrivacyAccountant sampled) {
        this.exact = MemoizingAccountant.of(Checks.notNull("exact", exact));
        this.sampled = MemoizingAccountant.of(Checks.notNull("sampled", sampled));
        if (exact.relation() != sampled.relation()) {
            throw Checks.fail("relation of the sampled-ledger accountant", "equal to " + exact.relation(),
                    sampled.relation());
        }
    }

    private PrivacyAccountant pick(DpEvent e) {
        return isSampled(e) ? sampled : exact;
    }

    static boolean isSampled(DpEvent e) {
        if (e instanceof PoissonSampledEvent p && p.samplingProbability() < 1 || e instanceof TruncatedPoissonEvent) {
            return true;
        }
        return DpEvents.parts(e).orElse(List.of()).stream().anyMatch(CurveAccountant::isSampled);
    }

    @Override
    public String name() {
        return exact.name() + "/" + sampled.name();
    }

    @Override
    public NeighboringRelation relation() {
        return exact.relation();
    }

    @Override
    public Optional<String> unsupportedReason(DpEvent event) {
        return pick(event).unsupportedReason(event);
    }

    @Override
    public double epsilon(DpEvent event, double delta) {
        return pick(event).epsilon(event, delta);
    }

    @Override
    public double delta(DpEvent event, double epsilon) {
        return pick(event).delta(event, epsilon);
    }
}
