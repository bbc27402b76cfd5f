package org.dpopt.accounting;

import java.util.Arrays;

/**
 * The RDP curve α ↦ ε(α) of an event tree on a fixed order grid. Per release (Mironov, "Rényi
 * Differential Privacy", CSF 2017): Gaussian α/(2z²); Laplace with scale b (Prop. 6)
 * (1/(α−1))·log((α/(2α−1))e^{(α−1)/b} + ((α−1)/(2α−1))e^{−α/b}); pure ε-DP min(ε, αε²/2) (Bun and
 * Steinke, "Concentrated Differential Privacy", TCC 2016); the Poisson-subsampled Gaussian under
 * add/remove-one by {@link SampledGaussianRdp}. Sequential composition adds the curves order by order;
 * parallel composition over disjoint parts takes the largest part's value at each order (a neighbouring
 * pair differs in one part only).
 */
final class RdpCurves {

    private final double[] orders;
    private final NeighboringRelation relation;
    private final String name;

    RdpCurves(double[] orders, NeighboringRelation relation, String name) {
        this.orders = orders;
        this.relation = relation;
        this.name = name;
    }

    /** The RDP curve of the event on the grid. */
    double[] of(DpEvent event) {
        double[] r = new double[orders.length];
        accumulate(event, r);
        return r;
    }

    /** Adds the curve of e to r: the curves of its sequential parts, each times its count. */
    private void accumulate(DpEvent e, double[] r) {
        Compositions.forEachLeaf(e, 1, (part, count) -> addPart(part, count, r));
    }

    /** Adds {@code mult} times the curve of one part of a sequential composition. */
    private void addPart(DpEvent e, double mult, double[] r) {
        if (e instanceof NonPrivateEvent) {
            Arrays.fill(r, Double.POSITIVE_INFINITY);
            return;
        }
        if (e instanceof ParallelComposedEvent par) {
            // disjoint parts: a neighbouring pair differs in one part only, so the RDP at each order is
            // at most the largest part's
            double[] worst = new double[r.length];
            for (DpEvent s : new java.util.LinkedHashSet<>(par.events())) { // equal parts: equal curves
                double[] part = new double[r.length];
                accumulate(s, part);
                for (int k = 0; k < r.length; k++) {
                    worst[k] = Math.max(worst[k], part[k]);
                }
            }
            for (int k = 0; k < r.length; k++) {
                r[k] += mult * worst[k];
            }
            return;
        }
        leaf(e, mult, r);
    }

    /** Adds {@code mult} times the curve of one release. */
    private void leaf(DpEvent e, double mult, double[] r) {
        if (e instanceof GaussianEvent g) {
            double z = g.noiseMultiplier();
            for (int k = 0; k < orders.length; k++) {
                r[k] += mult * orders[k] / (2 * z * z);
            }
            return;
        }
        if (e instanceof LaplaceEvent l) {
            for (int k = 0; k < orders.length; k++) {
                r[k] += mult * laplaceRdp(orders[k], l.noiseMultiplier());
            }
            return;
        }
        if (e instanceof EpsilonDeltaEvent ed) {
            if (ed.delta() > 0) {
                throw new UnsupportedEventException(e, name,
                        "an (epsilon, delta)-DP guarantee with delta > 0 has no finite RDP bound");
            }
            double eps = ed.epsilon();
            for (int k = 0; k < orders.length; k++) {
                r[k] += mult * Math.min(eps, orders[k] * eps * eps / 2);
            }
            return;
        }
        if (e instanceof PoissonSampledEvent p) {
            if (relation != NeighboringRelation.ADD_OR_REMOVE_ONE) {
                throw new UnsupportedEventException(e, name, "Poisson subsampling is only accounted "
                        + "under ADD_OR_REMOVE_ONE (for replace-one account under add/remove and apply group privacy)");
            }
            if (!(p.event() instanceof GaussianEvent g)) {
                throw new UnsupportedEventException(p.event(), name,
                        "only a Gaussian event may be Poisson-sampled for RDP accounting");
            }
            double[] curve = SampledGaussianRdp.curve(p.samplingProbability(), g.noiseMultiplier(), orders);
            for (int k = 0; k < orders.length; k++) {
                r[k] += mult * curve[k];
            }
            return;
        }
        throw new UnsupportedEventException(e, name, "no RDP bound is implemented for this event type");
    }

    /** RDP of Laplace with scale b (relative to ℓ1 sensitivity 1) at order α (Mironov 2017). */
    static double laplaceRdp(double alpha, double b) {
        double l1 = Math.log(alpha / (2 * alpha - 1)) + (alpha - 1) / b;
        double l2 = Math.log((alpha - 1) / (2 * alpha - 1)) - alpha / b;
        return SampledGaussianRdp.logAdd(l1, l2) / (alpha - 1);
    }
}
