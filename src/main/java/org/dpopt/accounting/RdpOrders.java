package org.dpopt.accounting;

import java.util.ArrayList;
import java.util.List;
import org.dpopt.linalg.Checks;

/**
 * The Rényi orders α at which RDP curves are kept. The default grid is that of Google's dp_accounting
 * library (1.1, 1.2, …, 10.9, 11, …, 63, 128, 256, 512, 1024): fine where the optimal order of typical
 * DP-SGD runs lies, with a few large orders for small ε.
 */
final class RdpOrders {
    private RdpOrders() {
    }

    /** The default grid, unmodifiable. */
    static final List<Double> DEFAULT = List.copyOf(boxed(defaults()));

    private static List<Double> boxed(double[] a) {
        List<Double> out = new ArrayList<>(a.length);
        for (double v : a) {
            out.add(v);
        }
        return out;
    }

    static double[] unboxed(List<Double> l) {
        double[] out = new double[l.size()];
        for (int i = 0; i < out.length; i++) {
            Double v = l.get(i);
            if (v == null) {
                throw Checks.fail("RDP order", "non-null", "null");
            }
            out[i] = v;
        }
        return out;
    }

    /** A fresh array of the default grid. */
    static double[] defaults() {
        List<Double> o = new ArrayList<>();
        for (int x = 1; x < 100; x++) {
            o.add(1 + x / 10.0);
        }
        for (int a = 11; a < 64; a++) {
            o.add((double) a);
        }
        o.add(128.0);
        o.add(256.0);
        o.add(512.0);
        o.add(1024.0);
        return o.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
