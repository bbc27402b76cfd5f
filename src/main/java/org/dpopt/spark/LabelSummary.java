package org.dpopt.spark;

import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;
import org.dpopt.linalg.Checks;

/**
 * The distinct labels of {@link DistributedData}, each with the first record id that carries it, ordered
 * by that id — enough for every label check the in-memory reader makes (binary encodings, k-class labels,
 * at least two classes), each failing on the same first offending record. Computed on the executors and
 * returned to the driver for input validation only; never released. If there are more than a cap of
 * distinct values (a regression target), only {@link #overflow()} is known.
 *
 * @param values the distinct labels in order of first appearance (empty on overflow)
 * @param firstIds the record id of each value's first appearance
 * @param rows the number of rows
 * @param overflow true if there were more distinct values than the cap
 */
public record LabelSummary(double[] values, long[] firstIds, long rows, boolean overflow) {

    /** Copies and validates. */
    public LabelSummary {
        values = values.clone();
        firstIds = firstIds.clone();
        if (values.length != firstIds.length) {
            throw Checks.fail("firstIds.length", "equal to values.length " + values.length, firstIds.length);
        }
    }

    /** The values. */
    @Override
    public double[] values() {
        return values.clone();
    }

    /** The first ids. */
    @Override
    public long[] firstIds() {
        return firstIds.clone();
    }

    /** Distinct labels of one or more blocks: value → smallest id, or null after the cap was passed. */
    static final class Partial implements Serializable {
        private static final long serialVersionUID = 1L;
        private final int cap;
        private HashMap<Double, Long> first = new HashMap<>();

        Partial(int cap) {
            this.cap = cap;
        }

        Partial add(RowBlock b) {
            for (int a = 0; a < b.rows && first != null; a++) {
                first.merge(b.y[a], b.firstId + a, Math::min);
                check();
            }
            return this;
        }

        Partial merge(Partial o) {
            if (first == null || o.first == null) {
                first = null;
                return this;
            }
            for (Map.Entry<Double, Long> e : o.first.entrySet()) {
                first.merge(e.getKey(), e.getValue(), Math::min);
            }
            check();
            return this;
        }

        private void check() {
            if (first != null && first.size() > cap) {
                first = null;
            }
        }

        LabelSummary summary(long rows) {
            if (first == null) {
                return new LabelSummary(new double[0], new long[0], rows, true);
            }
            Map.Entry<Double, Long>[] es = first.entrySet().toArray(Map.Entry[]::new);
            java.util.Arrays.sort(es, (x, y) -> Long.compare(x.getValue(), y.getValue()));
            double[] v = new double[es.length];
            long[] ids = new long[es.length];
            for (int k = 0; k < es.length; k++) {
                v[k] = es[k].getKey();
                ids[k] = es[k].getValue();
            }
            return new LabelSummary(v, ids, rows, false);
        }
    }
}
