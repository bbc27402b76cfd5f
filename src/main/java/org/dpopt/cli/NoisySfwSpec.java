package org.dpopt.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.frankwolfe.NoisyStochasticFrankWolfe;

/** {@code noisy-sfw}: one-pass noisy stochastic Frank–Wolfe over an ℓp ball (Gaussian noise). */
final class NoisySfwSpec implements AlgorithmSpec {

    @Override
    public String name() {
        return "noisy-sfw";
    }

    @Override
    public String summary() {
        return "BGM21 Alg. 5: one-pass noisy stochastic Frank-Wolfe over an lp ball (Gaussian, RDP)";
    }

    @Override
    public Map<Flag<?>, String> flags() {
        Map<Flag<?>, String> m = new LinkedHashMap<>();
        m.put(Flag.CONSTRAINT, "lp (or l1)");
        m.put(Flag.RADIUS, Double.toString(FrankWolfeDomains.DEFAULT_RADIUS));
        m.put(Flag.P, "2");
        return FrankWolfeDomains.onePass(m);
    }

    @Override
    public ConvexSet domain(TrainArgs a) {
        return FrankWolfeDomains.lpBall(a);
    }

    @Override
    public PrivateOptimizer build(TrainArgs a) {
        NoisyStochasticFrankWolfe.Builder b = NoisyStochasticFrankWolfe.builder().runOptions(a.runOptions()).preset(a.preset());
        if (a.has(Flag.ROUNDS)) {
            b.rounds(a.get(Flag.ROUNDS));
        }
        return b.build();
    }

    @Override
    public String hint() {
        return "--radius, --p or --constraint";
    }
}
