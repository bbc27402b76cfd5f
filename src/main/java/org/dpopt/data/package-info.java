/**
 * Datasets: {@link org.dpopt.data.Dataset} (n×d features, labels and a <em>declared</em> row-norm bound
 * that every row satisfies), {@link org.dpopt.data.DatasetIO} (CSV and LIBSVM with a declared
 * dimension; rows above the bound projected row by row or rejected — never scaled by data statistics),
 * {@link org.dpopt.data.Splits}, the bundled real datasets ({@link org.dpopt.data.BundledDatasets}) and
 * synthetic problems with known optima ({@link org.dpopt.data.Synthetic},
 * {@link org.dpopt.data.SparseLogistic}).
 */
package org.dpopt.data;
