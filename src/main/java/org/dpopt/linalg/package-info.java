/**
 * Small numerical helpers: {@link org.dpopt.linalg.Vectors} (dimension-checked operations on d×1 EJML
 * vectors, writing into out-parameters), {@link org.dpopt.linalg.Norms} (ℓp norms and their duals),
 * {@link org.dpopt.linalg.RowKernels} (the dot and axpy of every pass over rows, scalar or on the
 * incubating Vector API with the same bits, chosen at run time) and {@link org.dpopt.linalg.Checks}
 * (argument validation with one message format, {@code "<name> must be <condition> but was <value>"},
 * NaN-safe), and {@link org.dpopt.linalg.Futures} (joining work done on another thread so that its own
 * exception reaches the caller).
 */
package org.dpopt.linalg;
