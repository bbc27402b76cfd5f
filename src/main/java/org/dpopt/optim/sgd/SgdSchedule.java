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
 * @param average release the average of the iterates instead of the last one
 */
record SgdSchedule(BatchSampler sampler, DpEvent stepEvent, long steps, double normalizer, double clip, double eta,
        double l2, boolean average) {
}
