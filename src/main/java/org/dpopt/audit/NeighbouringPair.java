package org.dpopt.audit;

import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.Loss;
import org.dpopt.loss.Problem;
import org.ejml.data.DMatrixRMaj;

/**
 * Two neighbouring datasets under a relation: D (without the canary) and D′ (with it).
 *
 * <p><b>Several canaries.</b> The direction matrix may have k ≥ 1 columns u_1, …, u_k, one per
 * canary: D′ then holds k canaries, D none of them (k null records under zero-out, k replaced records
 * under replace-one), and each canary is its own neighbouring pair and its own trial. The
 * configurations that use k &gt; 1 put every canary on its own coordinate, which no other record uses,
 * so that the mechanism's view of canary j does not depend on the other canaries (see
 * {@code theory-notes/auditing.md}).
 *
 * <ul>
 * <li>add/remove-one: D′ = D ∪ {canary}; both are planned for the same declared public size n = |D′|;</li>
 * <li>zero-out: D has a null record (zero features, whose every gradient is 0) where D′ has the canary;</li>
 * <li>replace-one: D has another record where D′ has the canary.</li>
 * </ul>
 *
 * @param without D
 * @param with D′
 * @param declaredSize the public n both problems are planned for (0: each dataset's own size)
 * @param relation the relation D and D′ are neighbours under
 * @param direction the unit vectors u_j the statistics project releases on, one column per canary (d×k)
 * @param canary the (first) canary record (one row)
 * @param description one line: what the canary is
 * @param interceptScale c &gt; 0: both problems fit an intercept whose column is the constant c
 *                       ({@link Problem#withIntercept(double)}; the datasets hold the features only, the
 *                       directions are over the d features followed by the intercept's coordinate);
 *                       0: no intercept
 */
public record NeighbouringPair(Dataset without, Dataset with, int declaredSize, NeighboringRelation relation,
        DMatrixRMaj direction, Dataset canary, String description, double interceptScale) {

    /** A pair whose problems fit no intercept. */
    public NeighbouringPair(Dataset without, Dataset with, int declaredSize, NeighboringRelation relation,
            DMatrixRMaj direction, Dataset canary, String description) {
        this(without, with, declaredSize, relation, direction, canary, description, 0);
    }

    /** Validates. */
    public NeighbouringPair {
        Checks.allNotNull("without", without, "with", with, "relation", relation, "canary", canary,
                "description", description, "direction", direction);
        if (!(interceptScale >= 0) || Double.isInfinite(interceptScale)) {
            throw Checks.fail("interceptScale", "finite and positive (or 0 for no intercept)", interceptScale);
        }
        int dim = with.dimension() + (interceptScale > 0 ? 1 : 0);
        if (direction.numRows != dim || direction.numCols < 1) {
            throw Checks.fail("direction", "a " + dim + " x k matrix, k >= 1",
                    direction.numRows + " x " + direction.numCols);
        }
        if (without.dimension() != with.dimension()) {
            throw Checks.fail("dimension of D", "equal to that of D' " + with.dimension(), without.dimension());
        }
        if (declaredSize < 0 || (declaredSize > 0 && declaredSize < Math.max(with.size(), without.size()))) {
            throw Checks.fail("declaredSize", "0 or at least the larger dataset's size", declaredSize);
        }
        int diff = with.size() - without.size();
        int want = relation == NeighboringRelation.ADD_OR_REMOVE_ONE ? direction.numCols : 0;
        if (diff != want) {
            throw Checks.fail("|D'| - |D|", want + " under " + relation, diff);
        }
    }

    /** The number k of canaries (trials per run). */
    public int canaries() {
        return direction.numCols;
    }

    /** The direction u_j of canary j (d×1, a copy). */
    public DMatrixRMaj direction(int j) {
        DMatrixRMaj u = new DMatrixRMaj(direction.numRows, 1);
        for (int i = 0; i < direction.numRows; i++) {
            u.data[i] = direction.get(i, j);
        }
        return u;
    }

    /** The problem on D′ (withCanary) or D, with the pair's intercept if any and declared size if any. */
    public Problem problem(boolean withCanary, Loss loss, ConvexSet domain) {
        Problem p = Problem.of(withCanary ? with : without, loss, domain);
        if (interceptScale > 0) {
            p = p.withIntercept(interceptScale);
        }
        return declaredSize > 0 ? p.withDeclaredSize(declaredSize) : p;
    }
}
