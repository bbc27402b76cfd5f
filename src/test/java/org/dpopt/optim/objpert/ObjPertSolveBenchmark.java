package org.dpopt.optim.objpert;

import de.bwaldvogel.liblinear.Feature;
import de.bwaldvogel.liblinear.FeatureNode;
import de.bwaldvogel.liblinear.Linear;
import de.bwaldvogel.liblinear.Model;
import de.bwaldvogel.liblinear.Parameter;
import de.bwaldvogel.liblinear.SolverType;
import java.util.concurrent.TimeUnit;
import org.dpopt.data.Dataset;
import org.dpopt.data.Synthetic;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.loss.Losses;
import org.dpopt.noise.Rngs;
import org.dpopt.oracle.DatasetPasses;
import org.ejml.data.DMatrixRMaj;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The objective-perturbation solve (regularized logistic regression, d = 100) to relative
 * suboptimality 1e-6: our SVRG (stopping on the certificate α = 1e-6·J*) and our certified Newton
 * solver vs liblinear-java's primal trust-region Newton (L2R_LR, C = 1/(2λn)) with the largest
 * stopping tolerance that still reaches 1e-6 (tuned in setup, to liblinear's advantage).
 * λ is the objective-perturbation theorem value at ε = 1, δ = 1e-5, M = 20. Run:
 * {@code mvn -o -Pjmh test-compile exec:exec -Djmh.args="ObjPertSolveBenchmark -f 1 -wi 1 -i 3"}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class ObjPertSolveBenchmark {

    @Param({"100000"})
    public int n;

    static final int D = 100;
    PerturbedObjective obj;
    Dataset data;
    double lambda;
    double jStar;
    double liblinearEps;
    de.bwaldvogel.liblinear.Problem ll;

    @Setup(Level.Trial)
    public void setup() {
        data = Synthetic.logistic(n, Synthetic.plantedVector(D, 3, Rngs.seeded(1)), Rngs.seeded(2)).data();
        lambda = ObjectivePerturbationNoise.theoremLambda(1, 20, n, D, 1, 1e-5);
        obj = new PerturbedObjective(new DatasetPasses(data), Losses.logistic(), ConvexSets.unconstrained(),
                new DMatrixRMaj(D, 1), lambda, 1, 0.25);
        jStar = obj.value(new CertifiedNewtonSolver(1e-9, 100).solve(obj).w());
        ll = new de.bwaldvogel.liblinear.Problem();
        ll.l = n;
        ll.n = D;
        ll.bias = -1;
        ll.x = new Feature[n][];
        ll.y = new double[n];
        for (int i = 0; i < n; i++) {
            Feature[] row = new Feature[D];
            for (int j = 0; j < D; j++) {
                row[j] = new FeatureNode(j + 1, data.feature(i, j));
            }
            ll.x[i] = row;
            ll.y[i] = data.label(i) > 0 ? 1 : -1;
        }
        Linear.disableDebugOutput();
        liblinearEps = Double.NaN;
        for (double eps = 1e-1; eps >= 1e-10; eps /= 10) {
            if (relativeSuboptimality(liblinear(eps)) <= 1e-6) {
                liblinearEps = eps;
                break;
            }
        }
        System.out.printf("%nn=%d lambda=%.3g J*=%.10f liblinear eps=%s; svrg rel.subopt=%.2e newton=%.2e liblinear=%.2e%n",
                n, lambda, jStar, liblinearEps, relativeSuboptimality(svrg()), relativeSuboptimality(newton()),
                relativeSuboptimality(liblinear(liblinearEps)));
    }

    double relativeSuboptimality(DMatrixRMaj w) {
        return (obj.value(w) - jStar) / Math.abs(jStar);
    }

    DMatrixRMaj liblinear(double eps) {
        Model m = Linear.train(ll, new Parameter(SolverType.L2R_LR, 1 / (2 * lambda * n), eps));
        double[] wv = m.getFeatureWeights();
        DMatrixRMaj w = new DMatrixRMaj(D, 1);
        // liblinear orders weights by its label order; the first label seen is class +1 or −1
        double sign = m.getLabels()[0] == 1 ? 1 : -1;
        for (int j = 0; j < D; j++) {
            w.data[j] = sign * wv[j];
        }
        return w;
    }

    @Benchmark
    public DMatrixRMaj svrg() {
        return Svrg.solve(obj, 1e-6 * Math.abs(jStar), 10_000, true, Rngs.seeded(3)).w();
    }

    @Benchmark
    public DMatrixRMaj newton() {
        return new CertifiedNewtonSolver(1e-6, 500).solve(obj).w();
    }

    @Benchmark
    public DMatrixRMaj liblinear() {
        return liblinear(liblinearEps);
    }
}
