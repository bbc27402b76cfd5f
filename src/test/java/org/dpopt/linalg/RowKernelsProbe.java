package org.dpopt.linalg;

/** Run in a child JVM by {@link RowKernelsTest}: prints the chosen kernel and the bits of one dot. */
final class RowKernelsProbe {
    private RowKernelsProbe() {
    }

    public static void main(String[] args) {
        double[] x = new double[103];
        double[] w = new double[103];
        for (int j = 0; j < x.length; j++) {
            x[j] = Math.sin(j + 1) * 1e3;
            w[j] = Math.cos(3 * j) / 7;
        }
        System.out.println(RowKernels.kernel() + " " + Double.doubleToRawLongBits(RowKernels.dot(x, 0, w, 0, 103)));
    }
}
