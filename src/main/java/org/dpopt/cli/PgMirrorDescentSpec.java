package org.dpopt.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import org.dpopt.data.Dataset;
import org.dpopt.data.Labels;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.mirror.ProximallyGuidedMirrorDescent;

/** {@code pg-mirror-descent}: proximally guided private stochastic mirror descent (weakly convex, ℓp). */
final class PgMirrorDescentSpec implements AlgorithmSpec {

    /** The l2 radius D when --radius is not given (as for nsgd). */
    static final double DEFAULT_RADIUS = 10.0;

    /** The loss for binary labels when --loss is not given. */
    static final String CLASSIFICATION_LOSS = "logistic";

    @Override
    public String name() {
        return "pg-mirror-descent";
    }

    @Override
    public String summary() {
        return "BGM21 Alg. 6: proximally guided private stochastic mirror descent (weakly convex or convex, l_p)";
    }

    @Override
    public Map<Flag<?>, String> flags() {
        Map<Flag<?>, String> m = new LinkedHashMap<>();
        m.put(Flag.P, "2");
        m.put(Flag.RADIUS, DEFAULT_RADIUS + ": the l2 ball the iterates live in");
        m.put(Flag.RHO, "the loss's declared weak convexity; C/(30 R) for a convex loss");
        m.put(Flag.ACCOUNTANT, "pld");
        return m;
    }

    /** phase-retrieval; the default for binary labels is {@link #CLASSIFICATION_LOSS}. */
    @Override
    public String defaultLoss() {
        return "phase-retrieval";
    }

    @Override
    public String defaultLoss(Dataset train) {
        return Labels.isBinaryEncoded(train) ? CLASSIFICATION_LOSS : defaultLoss();
    }

    @Override
    public ConvexSet domain(TrainArgs a) {
        return ConvexSets.l2Ball(a.or(Flag.RADIUS, DEFAULT_RADIUS));
    }

    @Override
    public PrivateOptimizer build(TrainArgs a) {
        ProximallyGuidedMirrorDescent.Builder b = ProximallyGuidedMirrorDescent.builder().runOptions(a.runOptions());
        if (a.has(Flag.P)) {
            b.p(a.get(Flag.P));
        }
        if (a.has(Flag.RHO)) {
            b.rho(a.get(Flag.RHO));
        }
        return b.accountant(Accountants.byName(a.get(Flag.ACCOUNTANT))).build();
    }

    @Override
    public String hint() {
        return "--radius, --rho or --p";
    }
}
