package org.dpopt.cli;

import java.util.Set;

/**
 * The optional hyperparameters of {@code dpopt train}, as given on the command line. A null field
 * was not given; {@code given} holds the flag names that were (so that an algorithm can reject flags
 * it does not use).
 *
 * @param loss loss name (always set; defaults per algorithm)
 * @param epochs --epochs
 * @param batchSize --batch-size
 * @param clipNorm --clip-norm
 * @param learningRate --learning-rate
 * @param sampler --sampler
 * @param radius --radius
 * @param l2 --l2
 * @param p --p
 * @param constraint --constraint
 * @param accountant --accountant (null: default)
 * @param given flags given explicitly
 */
public record TrainOptions(String loss, Double epochs, Integer batchSize, Double clipNorm, Double learningRate,
        String sampler, Double radius, Double l2, Double p, String constraint, String accountant,
        Set<String> given) {

    /** Returns v if non-null, else the default. */
    public static <T> T or(T v, T dflt) {
        return v != null ? v : dflt;
    }
}
