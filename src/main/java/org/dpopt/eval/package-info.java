/**
 * Evaluation of a fitted model on data (e.g. held-out accuracy): numbers computed from the rows
 * themselves, which no privacy guarantee covers. Used by the demo, the benchmarks and the tests; nothing
 * in the optimizers depends on it.
 */
package org.dpopt.eval;
