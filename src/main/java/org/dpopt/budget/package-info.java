/**
 * Privacy budgets across runs: a {@link org.dpopt.budget.BudgetLedger} records every release on one
 * dataset (its event, certified ε and δ) and admits a new release only if the adaptive composition of
 * all of them stays within a total (ε, δ); a {@link org.dpopt.budget.BudgetFile} keeps the ledger in a
 * checksummed file under an exclusive lock, so that concurrent runs in several processes share one
 * budget.
 *
 * <p>Composition is adaptive: later runs may depend on earlier outputs. The bound used is the smallest
 * of the privacy-loss-distribution bound (Koskela, Jälkö, Honkela, "Computing tight differential privacy
 * guarantees using FFT", AISTATS 2020), the Rényi-DP bound (Mironov, "Rényi Differential Privacy", CSF
 * 2017) and basic composition (Dwork, McSherry, Nissim, Smith, TCC 2006), each a valid upper bound.
 */
package org.dpopt.budget;
