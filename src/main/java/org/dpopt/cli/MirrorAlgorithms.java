package org.dpopt.cli;

import java.util.Set;
import org.dpopt.optim.mirror.ProximallyGuidedMirrorDescent;

/** CLI spec of the weakly convex ℓp algorithm: pg-mirror-descent (BGM21 Algorithm 6). */
final class MirrorAlgorithms {
    private MirrorAlgorithms() {
    }

    static Algorithms.Spec pgMirrorDescent() {
        return new Algorithms.Spec("pg-mirror-descent", Set.of("--p", "--radius", "--accountant"), "phase-retrieval",
                o -> {
                    ProximallyGuidedMirrorDescent.Builder b = ProximallyGuidedMirrorDescent.builder();
                    if (o.p() != null) {
                        b.p(o.p());
                    }
                    b.accountant(Accountants.byName(o.accountant()));
                    return b.build();
                },
                "BGM21 Alg. 6: proximally guided private stochastic mirror descent (weakly convex, l_p, needs --radius)");
    }
}
