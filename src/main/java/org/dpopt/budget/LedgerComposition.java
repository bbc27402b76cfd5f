package org.dpopt.budget;

import java.util.ArrayList;
import java.util.List;
import org.dpopt.accounting.AblqAccountant;
import org.dpopt.accounting.ComposedEvent;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PldAccountant;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.accounting.RdpAccountant;

/**
 * The ε spent by a sequence of releases on one dataset, at the ledger's total δ.
 *
 * <p>The releases are adaptively composed: the composed event {@code Composed[e_1, …, e_m]} of their
 * recorded events is given to every accountant of the relation that supports it (PLD, RDP, and the
 * ABLQ accountant for shuffled batches), each returning an upper bound on ε at δ. Independently,
 * basic composition gives Σε_i whenever Σδ_i ≤ δ (each release's own certified (ε_i, δ_i)). Every one
 * of these is a valid upper bound for the same δ, so their minimum is too; that minimum is what the
 * ledger spends. For Gaussian-noise releases the accountants' composition is much tighter than the sum
 * (ε grows like √m instead of m); the sum is kept as a fallback for releases no accountant can compose.
 */
final class LedgerComposition {
    private LedgerComposition() {
    }

    /**
     * @param relation the ledger's neighbouring relation
     * @param entries the releases
     * @param delta the δ at which ε is wanted
     */
    static BudgetLedger.Spending spent(NeighboringRelation relation, List<BudgetLedger.Entry> entries, double delta) {
        if (entries.isEmpty()) {
            return new BudgetLedger.Spending(0, delta, "nothing spent");
        }
        List<DpEvent> events = new ArrayList<>();
        double sumEps = 0;
        double sumDelta = 0;
        double failure = 0;
        for (BudgetLedger.Entry e : entries) {
            events.add(e.event());
            sumEps += e.epsilon();
            sumDelta += e.delta();
            failure += e.failureProbability();
        }
        double best = Double.POSITIVE_INFINITY;
        String how = "no valid composition (the total is unbounded)";
        if (sumDelta <= delta && Double.isFinite(sumEps)) {
            best = sumEps;
            how = "basic composition: the sum of the releases' epsilons (their deltas sum to " + sumDelta + ")";
        }
        DpEvent composed = new ComposedEvent(events);
        for (PrivacyAccountant acc : accountants(relation)) {
            double eps = failure > 0 ? charged(acc, composed, delta, failure) : epsilon(acc, composed, delta);
            if (eps < best) {
                best = eps;
                how = acc.name() + " composition of the " + entries.size() + " recorded events";
            }
        }
        return new BudgetLedger.Spending(best, delta, how);
    }

    /**
     * ε of the composed events when the releases differ from their events' mechanisms on events of total
     * probability at most P on every dataset: then the composition is (ε, δ_acc(ε) + (1 + e^ε)P)-DP, so ε
     * is the accountant's at δ − (1 + e^ε)P, found by a monotone fixed point (+∞ if δ cannot cover it).
     */
    private static double charged(PrivacyAccountant acc, DpEvent composed, double delta, double failure) {
        double used = 2 * failure; // (1 + e^0)P: the charge at the smallest ε
        for (int k = 0; k < 200 && delta - used > 0; k++) {
            double eps = epsilon(acc, composed, delta - used);
            double need = (1 + Math.exp(eps)) * failure;
            if (!(eps < Double.POSITIVE_INFINITY) || need <= used) {
                return need <= used ? eps : Double.POSITIVE_INFINITY;
            }
            used = need;
        }
        return Double.POSITIVE_INFINITY;
    }

    private static double epsilon(PrivacyAccountant acc, DpEvent composed, double delta) {
        if (acc.unsupportedReason(composed).isPresent()) {
            return Double.POSITIVE_INFINITY;
        }
        try {
            double eps = acc.epsilon(composed, delta);
            return eps >= 0 ? eps : Double.POSITIVE_INFINITY;
        } catch (IllegalArgumentException e) { // unsupported, or refused as too large: another bound applies
            return Double.POSITIVE_INFINITY;
        }
    }

    private static List<PrivacyAccountant> accountants(NeighboringRelation relation) {
        List<PrivacyAccountant> out = new ArrayList<>();
        out.add(new PldAccountant(1e-4, relation));
        out.add(new RdpAccountant(RdpAccountant.DEFAULT_ORDERS, RdpAccountant.Conversion.IMPROVED, relation));
        if (relation == NeighboringRelation.ZERO_OUT) {
            out.add(new AblqAccountant());
        } else if (relation == NeighboringRelation.ADD_OR_REMOVE_ONE) {
            out.add(new AblqAccountant(relation, new RdpAccountant()));
        }
        return out;
    }
}
