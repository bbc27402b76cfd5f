package org.dpopt.sampling;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.linalg.Checks;

/**
 * Data-independent partitions of the records into disjoint parts, for parallel composition.
 *
 * <p>{@link #independentLabels}: every record draws its part label uniformly and independently of
 * the data and of every other record. This is the partition parallel composition needs under
 * add/remove-one: adding or removing a record leaves the labels of the others distributed exactly as
 * before (they are i.i.d., so their positions do not matter) and changes one part only. A positional
 * split (consecutive chunks of an order, {@link RecordOrder}) is safe only under replace-one.
 */
public final class Partitions {
    private Partitions() {
    }

    /**
     * Labels records 0..n−1 with independent uniform labels in [0, parts) (one {@code nextInt(parts)}
     * per record, in index order) and returns the parts: part k lists its records in increasing order.
     * Part sizes are random (Binomial(n, 1/parts)); algorithms normalize by the public expected size
     * n/parts, never by a realized size.
     *
     * @param n the public number of records n ≥ 1 (a declared size may exceed the rows present: the
     *          absent indices are then listed too and contribute nothing)
     * @param parts the number of parts ≥ 1
     * @param rng the source of the labels
     */
    public static int[][] independentLabels(int n, int parts, UniformRandomProvider rng) {
        Checks.atLeastOne("n", n);
        Checks.atLeastOne("parts", parts);
        Checks.notNull("rng", rng);
        int[] label = new int[n];
        int[] count = new int[parts];
        for (int i = 0; i < n; i++) {
            label[i] = rng.nextInt(parts);
            count[label[i]]++;
        }
        int[][] out = new int[parts][];
        for (int k = 0; k < parts; k++) {
            out[k] = new int[count[k]];
            count[k] = 0;
        }
        for (int i = 0; i < n; i++) {
            out[label[i]][count[label[i]]++] = i;
        }
        return out;
    }
}
