package org.dpopt.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.mirror.ProximallyGuidedMirrorDescent;

/** {@code pg-mirror-descent}: proximally guided private stochastic mirror descent (weakly convex, ℓp). */
final class PgMirrorDescentSpec implements AlgorithmSpec {

    @Override
    public String name() {
        return "pg-mirror-descent";
    }

    @Override
    public String summary() {
        return "BGM21 Alg. 6: proximally guided private stochastic mirror descent (weakly convex, l_p, needs --radius)";
    }

    @Override
    public Map<Flag<?>, String> flags() {
        Map<Flag<?>, String> m = new LinkedHashMap<>();
        m.put(Flag.P, "2");
        m.put(Flag.RADIUS, "required: the l2 ball the iterates live in");
        m.put(Flag.ACCOUNTANT, "pld");
        return m;
    }

    @Override
    public String defaultLoss() {
        return "phase-retrieval";
    }

    @Override
    public PrivateOptimizer build(TrainArgs a) {
        ProximallyGuidedMirrorDescent.Builder b = ProximallyGuidedMirrorDescent.builder().diagnostics(a.diagnostics());
        if (a.has(Flag.P)) {
            b.p(a.get(Flag.P));
        }
        return b.accountant(Accountants.byName(a.get(Flag.ACCOUNTANT))).build();
    }

    @Override
    public String hint() {
        return "--radius, --rho or --p";
    }
}
