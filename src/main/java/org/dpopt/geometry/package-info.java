/**
 * Constraint sets and geometries. {@link org.dpopt.geometry.ConvexSet} (projection; size queries per
 * dimension, so a box's diameter grows like √d): ℓ2 ball, box, all of ℝ^d in
 * {@link org.dpopt.geometry.ConvexSets}; {@link org.dpopt.geometry.Polytope} (vertices and the linear
 * minimization oracle Frank–Wolfe needs): the ℓ1 ball and simplex in every dimension, an explicit vertex
 * list in {@link org.dpopt.geometry.Polytopes}; {@link org.dpopt.geometry.LpBall} (linear minimization
 * over an ℓp ball); {@link org.dpopt.geometry.MirrorMap} (the ℓp mirror map of mirror descent).
 * Optimizers ask a set these questions instead of testing for concrete types.
 */
package org.dpopt.geometry;
