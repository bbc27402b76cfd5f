package org.dpopt.accounting;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import org.dpopt.linalg.Futures;
import org.dpopt.accounting.pld.Direction;
import org.dpopt.accounting.pld.PldGridTooLargeException;
import org.dpopt.accounting.pld.PrivacyLossDistribution;
import org.dpopt.accounting.pld.PrivacyLossDistributions;
import org.dpopt.accounting.pld.Rounding;

/**
 * Builds the privacy loss distribution of an event tree and evaluates a query on it, for the PLD
 * accountant: leaves are discretized (and cached), Gaussian parts are merged exactly into one Gaussian,
 * compositions are left lazy, and the query is the maximum over the two directions of the privacy loss
 * (remove and add) where the pair is not symmetric (Poisson subsampling: Zhu, Dong and Wang, "Optimal
 * Accounting of Differential Privacy via Characteristic Function", AISTATS 2022). If the grid does not
 * fit, it is coarsened by powers of ten (a coarser pessimistic grid is still an upper bound).
 */
final class PldEvaluator {

    private static final int MAX_COARSENINGS = 4;
    private static final int LEAF_CACHE_SIZE = 32;

    /**
     * Daemon workers for the second privacy-loss direction (the machines targeted have 2 cores); an idle
     * worker ends after a second, so no thread of the library stays in the caller's JVM after its queries.
     */
    private static final ThreadPoolExecutor WORKERS = workers();

    private static ThreadPoolExecutor workers() {
        int k = Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors() - 1));
        ThreadPoolExecutor pool = new ThreadPoolExecutor(k, k, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                runnable -> {
                    Thread t = new Thread(runnable, "dpopt-pld-direction");
                    t.setDaemon(true);
                    return t;
                });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    private final String name;
    /** Discretized leaves (pure functions of their key), shared by the queries of one accountant. */
    private final Map<LeafKey, PrivacyLossDistribution> leaves = new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<LeafKey, PrivacyLossDistribution> e) {
            return size() > LEAF_CACHE_SIZE;
        }
    };

    private record LeafKey(DpEvent leaf, Direction direction, double grid, Rounding rounding) {
    }

    /** @param name the accountant's name, for refusals */
    PldEvaluator(String name) {
        this.name = name;
    }

    /**
     * The max over directions of {@code value} applied to the event's PLD at grid h, coarsened 10× at a
     * time while the grid does not fit; at the coarsest buildable grid, {@code fallback} (a bound that
     * needs no FFT) if given. Returns {value, grid}, or null if no grid works.
     */
    double[] value(DpEvent e, double h, Rounding r, ToDoubleFunction<PrivacyLossDistribution> value,
            ToDoubleFunction<PrivacyLossDistribution> fallback, List<String> notes) {
        boolean symmetric = !EventShapes.contains(e, PoissonSampledEvent.class);
        double grid = h;
        List<PrivacyLossDistribution> lastBuilt = null;
        double lastGrid = grid;
        for (int attempt = 0;; attempt++) {
            List<PrivacyLossDistribution> built = new ArrayList<>();
            try {
                List<String> local = new ArrayList<>();
                double v = symmetric ? removeOnly(e, grid, r, value, built, local)
                        : bothDirections(e, grid, r, value, built, local);
                lastBuilt = built;
                lastGrid = grid;
                if (notes != null) {
                    local.forEach(n -> Notes.add(notes, n));
                    if (r.isPessimistic()) {
                        Notes.add(notes, "PLD h=" + grid + ": connect-the-dots, tilted FFT with FFT round-off, "
                                + "wrap-around and truncation charged" + (symmetric ? "" : ", max over add and remove directions"));
                    }
                }
                return new double[] {v, grid};
            } catch (PldGridTooLargeException ex) {
                double next = coarser(grid, ex);
                if (attempt >= MAX_COARSENINGS || next > 1 + 1e-12) {
                    break;
                }
                if (notes != null && r.isPessimistic()) {
                    Notes.add(notes, "grid too large at h=" + grid + "; coarsened to h=" + (float) next
                            + " (looser but valid)");
                }
                grid = Double.parseDouble(Float.toString((float) next)); // keep h a round decimal
            }
        }
        if (fallback == null || lastBuilt == null) {
            return null;
        }
        double v = Double.NEGATIVE_INFINITY;
        for (PrivacyLossDistribution p : lastBuilt) {
            v = Math.max(v, fallback.applyAsDouble(p));
        }
        Notes.add(notes, "PLD FFT window too large even at h=" + lastGrid + "; Chernoff bound of the discretized pairs used");
        return new double[] {v, lastGrid};
    }

    /** The first power-of-ten coarsening of {@code grid} that can fit. */
    private static double coarser(double grid, PldGridTooLargeException ex) {
        double factor = Math.pow(10, Math.max(1, Math.ceil(Math.log10(ex.coarseningNeeded()) - 1e-9)));
        return grid * factor;
    }

    /** A symmetric pair: the removal direction only. */
    private double removeOnly(DpEvent e, double grid, Rounding r, ToDoubleFunction<PrivacyLossDistribution> value,
            List<PrivacyLossDistribution> built, List<String> local) {
        built.add(pld(e, Direction.REMOVE, grid, r, local));
        double v = Double.NEGATIVE_INFINITY;
        for (PrivacyLossDistribution p : built) {
            v = Math.max(v, value.applyAsDouble(p));
        }
        return v;
    }

    /** The two directions are independent: the addition one on a second thread. */
    private double bothDirections(DpEvent e, double grid, Rounding r, ToDoubleFunction<PrivacyLossDistribution> value,
            List<PrivacyLossDistribution> built, List<String> local) {
        CompletableFuture<double[]> add = CompletableFuture.supplyAsync(() -> {
            PrivacyLossDistribution p = pld(e, Direction.ADD, grid, r, new ArrayList<>());
            return new double[] {value.applyAsDouble(p)};
        }, WORKERS);
        PrivacyLossDistribution rem = pld(e, Direction.REMOVE, grid, r, local);
        double vr;
        try {
            vr = value.applyAsDouble(rem);
        } catch (RuntimeException ex) {
            add.cancel(false);
            throw ex;
        }
        double va = join(add);
        built.add(rem);
        built.add(pld(e, Direction.ADD, grid, r, local));
        return Math.max(vr, va);
    }

    private static double join(CompletableFuture<double[]> f) {
        return Futures.join(f)[0];
    }


    /** The lazily composed PLD of a normalized, non-top-parallel, not all-no-op event. */
    private PrivacyLossDistribution pld(DpEvent e, Direction d, double grid, Rounding r, List<String> notes) {
        if (e instanceof GaussianEvent || e instanceof LaplaceEvent || e instanceof EpsilonDeltaEvent
                || e instanceof PoissonSampledEvent) {
            return leaf(e, d, grid, r);
        }
        if (e instanceof SelfComposedEvent s) {
            double precision = EventShapes.gaussianPrecision(e);
            if (precision > 0) {
                return leaf(new GaussianEvent(1 / Math.sqrt(precision)), d, grid, r);
            }
            PrivacyLossDistribution inner = pld(s.event(), d, grid, r, notes);
            return inner == null ? null : inner.selfCompose(s.count());
        }
        if (e instanceof ComposedEvent c) {
            return composeAll(c.events(), d, grid, r, notes);
        }
        if (e instanceof ParallelComposedEvent par) {
            if (par.events().stream().distinct().count() == 1) {
                return pld(par.events().get(0), d, grid, r, notes);
            }
            Notes.add(notes, "parallel composition nested in a sequential one: parts composed sequentially (sound, loose)");
            return composeAll(par.events(), d, grid, r, notes);
        }
        if (e instanceof NoOpEvent) {
            return null;
        }
        throw new UnsupportedEventException(e, name, "no privacy loss distribution for this event type");
    }

    /** Composes parts; all Gaussian parts are first merged into one Gaussian (exact). */
    private PrivacyLossDistribution composeAll(List<DpEvent> parts, Direction d, double grid, Rounding r,
            List<String> notes) {
        double precision = 0;
        PrivacyLossDistribution acc = null;
        for (DpEvent part : parts) {
            double p = EventShapes.gaussianPrecision(part);
            if (p > 0) {
                precision += p;
                continue;
            }
            if (EventShapes.allNoOp(part)) {
                continue;
            }
            PrivacyLossDistribution x = pld(DpEvents.normalize(part), d, grid, r, notes);
            if (x != null) {
                acc = acc == null ? x : acc.compose(x);
            }
        }
        if (precision > 0) {
            PrivacyLossDistribution g = leaf(new GaussianEvent(1 / Math.sqrt(precision)), d, grid, r);
            acc = acc == null ? g : acc.compose(g);
        }
        return acc;
    }

    /** The discretized PLD of one leaf (cached). */
    private PrivacyLossDistribution leaf(DpEvent e, Direction d, double grid, Rounding r) {
        LeafKey key = new LeafKey(e, d, grid, r);
        synchronized (leaves) {
            PrivacyLossDistribution hit = leaves.get(key);
            if (hit != null) {
                return hit;
            }
        }
        PrivacyLossDistribution out;
        if (e instanceof GaussianEvent g) {
            out = PrivacyLossDistributions.gaussian(g.noiseMultiplier(), d, grid, r);
        } else if (e instanceof LaplaceEvent l) {
            out = PrivacyLossDistributions.laplace(l.noiseMultiplier(), d, grid, r);
        } else if (e instanceof EpsilonDeltaEvent ed) {
            out = PrivacyLossDistributions.epsilonDelta(ed.epsilon(), ed.delta(), grid, r);
        } else if (e instanceof PoissonSampledEvent p && p.event() instanceof GaussianEvent g) {
            out = PrivacyLossDistributions.poissonGaussian(p.samplingProbability(), g.noiseMultiplier(), d, grid, r);
        } else {
            throw new UnsupportedEventException(e, name, "no privacy loss distribution for this event type");
        }
        synchronized (leaves) {
            leaves.put(key, out);
        }
        return out;
    }
}
