package org.dpopt.optim.frankwolfe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.Polytope;
import org.dpopt.geometry.Polytopes;
import org.dpopt.linalg.Vectors;
import org.dpopt.noise.Rngs;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

class ChosenVertexTest {

    @Test
    void rowDotsEqualTheDenseDotForEveryVertex() {
        UniformRandomProvider rng = Rngs.seeded(5);
        int d = 5;
        double[][] rows = new double[3][d];
        for (double[] r : rows) {
            for (int k = 0; k < d; k++) {
                r[k] = (rng.nextDouble() - 0.5) * 0.4;
            }
        }
        Dataset data = Dataset.of(rows, new double[] {1, 0, 1}, 1.0);
        DMatrixRMaj x = new DMatrixRMaj(d, 1);
        DMatrixRMaj v = new DMatrixRMaj(d, 1);
        ChosenVertex chosen = new ChosenVertex(d);
        for (Polytope p : new Polytope[] {Polytopes.l1Ball(2), Polytopes.simplex(1),
                Polytopes.vertices(new double[][] {{1, 2, 3, 4, 5}, {0, 0, 0, 0, -1}, {0, 0, 0, 0, 0}})}) {
            for (int j = 0; j < p.vertexCount(d); j++) {
                p.vertex(j, v);
                chosen.load(p, j);
                for (int i = 0; i < 3; i++) {
                    data.row(i, x);
                    assertEquals(Vectors.dot(v, x), chosen.dotRow(data, i), 1e-14, p + " vertex " + j);
                }
            }
        }
        // coordinate vertices: exactly ±r·x_ik, the product the margin updates have always used
        chosen.load(Polytopes.l1Ball(2), 7);
        assertEquals(-(2 * rows[1][3]), chosen.dotRow(data, 1), 0);
    }
}
