package org.dpopt.cli;

import org.dpopt.accounting.AblqAccountant;
import org.dpopt.accounting.PldAccountant;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.accounting.RdpAccountant;
import org.dpopt.linalg.Checks;

/** Accountants by CLI name. */
final class Accountants {
    private Accountants() {
    }

    /** Default accountant name (PLD: tight, with an optimistic lower bound). */
    static final String DEFAULT = "pld";

    /** As {@link #byName(String)}, with the PLD grid spacing h (only for "pld"). */
    static PrivacyAccountant byName(String name, double discretization) {
        String n = name == null ? DEFAULT : name;
        if (!"pld".equals(n)) {
            throw Checks.fail("--discretization", "used only with --accountant pld", discretization);
        }
        return new PldAccountant(discretization, org.dpopt.accounting.NeighboringRelation.ADD_OR_REMOVE_ONE);
    }

    static PrivacyAccountant byName(String name) {
        String n = name == null ? DEFAULT : name;
        switch (n) {
            case "rdp":
                return new RdpAccountant();
            case "pld":
                return new PldAccountant();
            case "ablq":
                return new AblqAccountant();
            default:
                throw Checks.fail("--accountant", "one of [pld, rdp, ablq]", n);
        }
    }
}
