package org.dpopt.optim.sgd;

import org.dpopt.accounting.DpEvent;
import org.dpopt.sampling.BatchSampler;

/**
 * A planned noisy-SGD run: everything the loop needs, from public quantities only.
 *
 * @param sampler the sampler batches are drawn from
 * @param stepEvent the event recorded per noisy batch sum (the accounted sampler's step event)
 * @param steps T
 * @param normalizer the public constant the noisy sum is divided by
 * @param clip C, the per-example clip norm and the ℓ2 sensitivity of a batch sum
 * @param eta η
 * @param l2 λ of the (λ/2)‖w‖² decay (0: none)
 * @param averageFrom a: the release is the average (1/(T − a)) Σ_{t=a+1..T} w_t of the iterates after
 *                    step a (0: all iterates; T − 1: the last iterate alone)
 */
record SgdSchedule(BatchSampler sampler, DpEvent stepEvent, long steps, double normalizer, double clip, double eta,
        double l2, long averageFrom) {

    /** The last iterate alone. */
    static long last(long steps) {
        return steps - 1;
    }

    /** Whether the release is the last iterate alone. */
    boolean lastIterate() {
        return averageFrom >= steps - 1;
    }
}
