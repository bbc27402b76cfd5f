/**
 * Checks made on a trained model before it is released, each a private mechanism of its own whose
 * event is composed with the model's. {@link org.dpopt.optim.check.ConstantCheck} spends a small part
 * of ε choosing, by report-noisy-max over training-set counts, between a trained binary classifier and
 * the two constant classifiers, so a model worse than "always the majority class" is rarely released.
 */
package org.dpopt.optim.check;
