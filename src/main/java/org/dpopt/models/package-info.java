/**
 * Models for users: estimators in the scikit-learn idiom ({@link org.dpopt.models.DpLogisticRegression},
 * {@link org.dpopt.models.DpLinearRegression}) on top of the private optimizers, and the fitted
 * {@link org.dpopt.models.Model} — weights, intercepts, classes, the declared public constants and the
 * privacy statement ({@link org.dpopt.models.ModelPrivacy}) — with {@code predict},
 * {@code predictProbability} and a versioned JSON file format ({@code Model.save}/{@code Model.load}).
 *
 * <p>Defaults come from public quantities only (n, d, ε, δ, the declared row-norm bound), noise is
 * secure unless a seed is given (research mode, which the model then says is not private), and a
 * model file holds only the private release and its statement — never a non-private diagnostic.
 */
package org.dpopt.models;
