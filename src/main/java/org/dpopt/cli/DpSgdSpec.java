package org.dpopt.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import org.dpopt.linalg.Checks;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.sgd.NoisySgd;
import org.dpopt.sampling.Samplers;

/** {@code dp-sgd}: practical DP-SGD with a batch sampler coupled to its accounting. */
final class DpSgdSpec implements AlgorithmSpec {

    @Override
    public String name() {
        return "dp-sgd";
    }

    @Override
    public String summary() {
        return "practical DP-SGD: Poisson batches, per-example clipping, calibrated Gaussian noise";
    }

    @Override
    public Map<Flag<?>, String> flags() {
        Map<Flag<?>, String> m = new LinkedHashMap<>();
        m.put(Flag.EPOCHS, "30");
        m.put(Flag.BATCH_SIZE, "min(256, n/10)");
        m.put(Flag.CLIP_NORM, "1");
        m.put(Flag.LEARNING_RATE, "1");
        m.put(Flag.SAMPLER, "poisson");
        m.put(Flag.MAX_BATCH_SIZE, "b + ceil(8 sqrt(b)) with --sampler truncated-poisson");
        m.put(Flag.RADIUS, "none (unconstrained)");
        m.put(Flag.L2, "0");
        m.put(Flag.ACCOUNTANT, "pld for poisson, ablq for the other samplers");
        return m;
    }

    @Override
    public PrivateOptimizer build(TrainArgs a) {
        NoisySgd.Builder b = NoisySgd.builder().runOptions(a.runOptions());
        if (a.has(Flag.EPOCHS)) {
            b.epochs(a.get(Flag.EPOCHS));
        }
        if (a.has(Flag.BATCH_SIZE)) {
            b.batchSize(a.get(Flag.BATCH_SIZE));
        }
        if (a.has(Flag.CLIP_NORM)) {
            b.clipNorm(a.get(Flag.CLIP_NORM));
        }
        if (a.has(Flag.LEARNING_RATE)) {
            b.learningRate(a.get(Flag.LEARNING_RATE));
        }
        if (a.has(Flag.L2)) {
            b.l2(a.get(Flag.L2));
        }
        String sampler = a.or(Flag.SAMPLER, "poisson");
        Integer max = a.get(Flag.MAX_BATCH_SIZE);
        if (max != null) {
            boolean planned = "planned-truncated-poisson".equals(sampler);
            if (!"truncated-poisson".equals(sampler) && !planned) {
                throw Checks.fail("--max-batch-size", "used only with --sampler truncated-poisson", max);
            }
            Integer batch = a.get(Flag.BATCH_SIZE);
            if (batch != null && max < batch) {
                throw Checks.fail("--max-batch-size", "at least --batch-size " + batch, max);
            }
            int m = Checks.atLeastOne("--max-batch-size", max);
            b.sampler(planned ? Samplers.plannedTruncatedPoisson(m) : Samplers.truncatedPoisson(m));
        } else {
            b.sampler(Samplers.byName(sampler));
        }
        if (a.has(Flag.ACCOUNTANT)) {
            b.accountant(Accountants.byName(a.get(Flag.ACCOUNTANT)));
        }
        return b.build();
    }
}
