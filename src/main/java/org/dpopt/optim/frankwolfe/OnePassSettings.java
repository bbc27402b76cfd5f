package org.dpopt.optim.frankwolfe;

import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.data.Dataset;
import org.dpopt.optim.Preset;

/**
 * What a one-pass builder ({@link OnePassBuilder}) hands to its optimizer. Zero or NaN means automatic:
 * rounds 0 → ⌈(nε)^{1/3}⌉, stepSize NaN → 1/R, stepsPerRound 0 → ⌈L/(βμ·diam₂)⌉, shuffleBlock 0 →
 * {@link org.dpopt.sampling.RecordOrder#blockFor} of the difference batch.
 *
 * @param rounds R, or 0
 * @param stepSize μ, or NaN
 * @param stepsPerRound m, or 0
 * @param shuffle read blocks in a random order (false: storage order)
 * @param shuffleBlock rows per shuffled block, or 0
 * @param accountant calibrates and certifies (replace-one)
 * @param population a sample from the population for the non-private {@code population_risk}, or null
 * @param preset PAPER: the uniformly random iterate of the theorem; PRACTICAL: the last iterate (and, when
 *               rounds, step size and steps per round are all automatic, the multi-pass schedule)
 * @param passes K, the passes over the data, or 0 (automatic: 1 for the paper preset or a given
 *               schedule, the multi-pass rule of {@link OnePassSchedule} for the practical preset)
 */
record OnePassSettings(int rounds, double stepSize, int stepsPerRound, boolean shuffle, int shuffleBlock,
        PrivacyAccountant accountant, Dataset population, Preset preset, int passes) {
}
