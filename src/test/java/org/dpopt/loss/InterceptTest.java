package org.dpopt.loss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpopt.data.Dataset;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.geometry.Polytopes;
import org.junit.jupiter.api.Test;

/** The intercept as an augmented column: declared bound √(R² + c²), refusals, test data augmented alike. */
class InterceptTest {

    static Dataset rows() {
        // two rows exactly on the bound R = 2, one inside
        return Dataset.of(new double[][] {{2, 0}, {0, -2}, {0.5, 0.5}}, new double[] {1, 0, 1}, 2.0);
    }

    @Test
    void augmentedRowsCarryTheConstantAndTheLargerDeclaredBound() {
        Problem p = Problem.of(rows(), Losses.logistic()).withIntercept(1.5);
        assertTrue(p.hasIntercept());
        assertEquals(3, p.dimension());
        assertEquals(2, p.featureDimension());
        assertEquals(1.5, p.data().feature(1, 2), 0);
        double bound = p.data().rowNormBound();
        assertTrue(bound >= 2.5 && bound <= 2.5 * (1 + 1e-14), "sqrt(4 + 2.25) = 2.5, rounded up: " + bound);
        for (int i = 0; i < 3; i++) {
            assertTrue(p.data().rowNorm(i) <= bound);
        }
        assertEquals(bound, p.shape().rowNormBound(), 0);
        assertEquals(1.5, p.shape().interceptScale(), 0);
        assertEquals(Losses.logistic().lipschitz(bound), p.lipschitz(), 0);
        assertEquals(1.0, Problem.defaultInterceptScale(2.0), 0);
    }

    @Test
    void testDataIsAugmentedWithTheSameConstant() {
        Problem p = Problem.of(rows(), Losses.logistic()).withIntercept();
        Problem t = p.withData(Dataset.of(new double[][] {{0.1, 0.2}}, new double[] {0}, 2.0));
        assertEquals(3, t.dimension());
        assertEquals(1.0, t.data().feature(0, 2), 0);
        assertThrows(IllegalArgumentException.class,
                () -> p.withData(Dataset.of(new double[][] {{0.1, 0.2, 0.3}}, new double[] {0}, 2.0)));
    }

    @Test
    void refusesASimplexAndAnInterceptTwice() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Problem.of(rows(), Losses.logistic(), Polytopes.simplex(1)).withIntercept());
        assertTrue(e.getMessage().startsWith("intercept must be off for the constraint set"), e.getMessage());
        Problem.of(rows(), Losses.logistic(), Polytopes.l1Ball(1)).withIntercept();
        Problem.of(rows(), Losses.logistic(), ConvexSets.l2Ball(1)).withIntercept();
        assertThrows(IllegalArgumentException.class, () -> Problem.of(rows(), Losses.logistic(),
                ConvexSets.box(0, 1)).withIntercept());
        Problem once = Problem.of(rows(), Losses.logistic()).withIntercept();
        assertThrows(IllegalArgumentException.class, once::withIntercept);
        assertThrows(IllegalArgumentException.class, () -> Problem.of(rows(), Losses.logistic()).withIntercept(0));
    }

    @Test
    void anInconsistentInterceptColumnIsRefused() {
        Dataset d = Dataset.of(new double[][] {{0.1, 1}, {0.2, 0.9}}, new double[] {0, 1}, 2.0);
        assertThrows(IllegalArgumentException.class, () -> new Problem(d, Losses.logistic(),
                ConvexSets.unconstrained(), 0, 1.0));
    }

    @Test
    void binaryLossesRefuseOtherLabels() {
        Dataset three = Dataset.of(new double[][] {{0.1}, {0.2}, {0.3}}, new double[] {0, 1, 2}, 1.0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Problem.of(three, Losses.logistic()));
        assertTrue(e.getMessage().contains("use the multinomial loss"), e.getMessage());
        Problem.of(three, Losses.squared(1, 2)); // regression reads any label
        Problem.of(three, Losses.multinomial(3));
    }
}
