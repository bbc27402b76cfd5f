package org.dpopt.geometry;

import java.util.OptionalDouble;
import org.dpopt.linalg.Checks;
import org.dpopt.linalg.Vectors;
import org.ejml.data.DMatrixRMaj;

/** Factories for the standard constraint sets: ℓ2 ball, box, all of ℝ^d. */
public final class ConvexSets {
    private ConvexSets() {
    }

    /** The centred ℓ2 ball {w : ‖w‖₂ ≤ r}. */
    public static ConvexSet l2Ball(double r) {
        return new L2Ball(Checks.positive("radius", r));
    }

    /** The box {w : lo ≤ w_j ≤ hi} for every coordinate. */
    public static ConvexSet box(double lo, double hi) {
        Checks.finite("lo", lo);
        Checks.finite("hi", hi);
        if (!(lo < hi)) {
            throw Checks.fail("hi", "greater than lo = " + lo, hi);
        }
        return new Box(lo, hi);
    }

    /** ℝ^d (projection is the identity). */
    public static ConvexSet unconstrained() {
        return Unconstrained.INSTANCE;
    }

    /** The centred ℓ2 ball. */
    public record L2Ball(double r) implements CentredBall {
        /** Validates the radius. */
        public L2Ball {
            Checks.positive("radius", r);
        }

        @Override
        public void project(DMatrixRMaj w) {
            Vectors.clipL2(w, r);
        }

        @Override
        public OptionalDouble centredBallRadius() {
            return OptionalDouble.of(r);
        }

        @Override
        public boolean contains(DMatrixRMaj w, double tol) {
            return Vectors.norm2(w) <= r + tol;
        }
    }

    /** A box [lo, hi]^d. */
    public record Box(double lo, double hi) implements ConvexSet {
        /** Validates lo &lt; hi. */
        public Box {
            if (!(lo < hi)) {
                throw Checks.fail("hi", "greater than lo = " + lo, hi);
            }
        }

        @Override
        public void project(DMatrixRMaj w) {
            for (int j = 0; j < w.numRows; j++) {
                w.data[j] = Math.max(lo, Math.min(hi, w.data[j]));
            }
        }

        /** The ℓ2 diameter in dimension d: (hi − lo)·√d. */
        @Override
        public double diameter(int d) {
            return (hi - lo) * Math.sqrt(d);
        }

        /** sup ‖w‖₂ in dimension d. */
        @Override
        public double radius(int d) {
            return Math.max(Math.abs(lo), Math.abs(hi)) * Math.sqrt(d);
        }

        @Override
        public boolean isBounded() {
            return true;
        }

        @Override
        public boolean isSignSymmetric() {
            return lo == -hi;
        }

        @Override
        public boolean contains(DMatrixRMaj w, double tol) {
            for (int j = 0; j < w.numRows; j++) {
                if (w.data[j] < lo - tol || w.data[j] > hi + tol) {
                    return false;
                }
            }
            return true;
        }
    }

    /** All of ℝ^d. */
    public enum Unconstrained implements ConvexSet {
        /** The only instance. */
        INSTANCE;

        /** "the whole space R^d", as messages name it. */
        @Override
        public String toString() {
            return "the whole space R^d";
        }

        @Override
        public void project(DMatrixRMaj w) {
            // identity
        }

        @Override
        public double diameter(int d) {
            return Double.POSITIVE_INFINITY;
        }

        @Override
        public double radius(int d) {
            return Double.POSITIVE_INFINITY;
        }

        @Override
        public boolean isBounded() {
            return false;
        }

        @Override
        public boolean isSignSymmetric() {
            return true;
        }

        @Override
        public boolean isWholeSpace() {
            return true;
        }

        @Override
        public boolean contains(DMatrixRMaj w, double tol) {
            return true;
        }
    }
}
