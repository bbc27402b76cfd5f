/**
 * Losses and problems. {@link org.dpopt.loss.Loss} declares the public constants privacy rests on
 * (Lipschitz bound and smoothness for a declared row-norm bound, convexity class);
 * {@link org.dpopt.loss.GeneralizedLinearLoss} φ(⟨w, x⟩, y) with scalar derivatives; the catalog
 * {@link org.dpopt.loss.Losses} (logistic, hinge, absolute, squared, Huber, smoothed hinge, and the
 * weakly convex phase-retrieval, sigmoid and Cauchy losses). {@link org.dpopt.loss.Problem} is data +
 * loss + constraint set; {@link org.dpopt.loss.ProblemShape} is its public face — the only thing an
 * optimizer's plan sees.
 */
package org.dpopt.loss;
