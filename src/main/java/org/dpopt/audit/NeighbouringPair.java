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
 * @param direction the unit vector u the white-box statistics project releases on (d×1)
 * @param canary the canary record (one row)
 * @param description one line: what the canary is
 */
public record NeighbouringPair(Dataset without, Dataset with, int declaredSize, NeighboringRelation relation,
        DMatrixRMaj direction, Dataset canary, String description) {

    /** Validates. */
    public NeighbouringPair {
        Checks.notNull("without", without);
        Checks.notNull("with", with);
        Checks.notNull("relation", relation);
        Checks.notNull("canary", canary);
        Checks.notNull("description", description);
        Checks.vector("direction", direction, with.dimension());
        if (without.dimension() != with.dimension()) {
            throw Checks.fail("dimension of D", "equal to that of D' " + with.dimension(), without.dimension());
        }
        if (declaredSize < 0 || (declaredSize > 0 && declaredSize < Math.max(with.size(), without.size()))) {
            throw Checks.fail("declaredSize", "0 or at least the larger dataset's size", declaredSize);
        }
        int diff = with.size() - without.size();
        int want = relation == NeighboringRelation.ADD_OR_REMOVE_ONE ? 1 : 0;
        if (diff != want) {
            throw Checks.fail("|D'| - |D|", want + " under " + relation, diff);
        }
    }

    /** The problem on D′ (withCanary) or D, planned for the declared size if any. */
    public Problem problem(boolean withCanary, Loss loss, ConvexSet domain) {
        Problem p = Problem.of(withCanary ? with : without, loss, domain);
        return declaredSize > 0 ? p.withDeclaredSize(declaredSize) : p;
    }
}
