package org.dpopt.cli;

/**
 * The held-out metrics of a {@code dpopt train} run (computed on test data, which the privacy guarantee
 * does not cover), the same for both engines.
 *
 * @param accuracy a classifier's accuracy, null for regression
 * @param majorityRate the share of the most frequent test label (null with {@code accuracy})
 * @param loss the empirical risk on the test rows
 * @param rows the number of test rows
 */
record HeldOut(Double accuracy, Double majorityRate, double loss, long rows) {
}
