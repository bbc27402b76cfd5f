package org.dpopt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dpopt.data.BundledDatasets;
import org.dpopt.data.Dataset;
import org.dpopt.data.Synthetic;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.dpopt.optim.sgd.NoisySgd;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.PrivateOptimizer;
import org.junit.jupiter.api.Test;

/**
 * Behaviour lock: for every algorithm, a seeded run on a fixed problem must reproduce the released
 * model bit for bit and the same privacy report as recorded in {@code golden/runs.txt}. The file was
 * written at commit 267752b, before the run-core redesign; regenerate it only in a commit that says
 * why the bits changed ({@code -Dgolden.write=path}).
 *
 * <p>The first twelve cases are the configurations of that commit, which had no intercept: since the
 * intercept became the default they are pinned as {@code --no-intercept} (problems without the
 * intercept's column) and still reproduce the old bits; where an algorithm's default became a practical rule
 * they pin {@code --preset paper}, the theorem's setting they were recorded with. The cases named {@code ...+intercept} lock the
 * new CLI defaults (rows (x, R/2), built exactly as {@code dpopt train} builds them) of the trained
 * optimizer, {@code dp-sgd+multinomial} locks the k-class model on the wine data, and the cases
 * {@code ...+intercept+check} lock the constant check {@code dpopt train} adds by default on top.
 */
class GoldenRunsTest {

    record Case(String name, PrivateOptimizer optimizer, Problem problem) {
    }

    static List<Case> cases() {
        Dataset bc = BundledDatasets.split("breast_cancer").train();
        Dataset pr = Synthetic.phaseRetrieval(600, Synthetic.plantedVector(5, 1, Rngs.seeded(1)), 0.1,
                Rngs.seeded(2)).data();
        List<Case> out = new ArrayList<>();
        out.add(cli("dp-sgd", "logistic", bc, null, Map.of()));
        out.add(new Case("dp-sgd-fixed-z", NoisySgd.builder().noiseMultiplier(1.1).epochs(5).build(),
                Problem.of(bc, Losses.logistic())));
        out.add(cli("nsgd", "logistic", bc, 10.0, Map.of("--preset", "paper")));
        out.add(cli("non-private", "logistic", bc, null, Map.of()));
        out.add(cli("noisy-frank-wolfe", "logistic", bc, null, Map.of()));
        out.add(cli("vr-frank-wolfe", "logistic", bc, null, Map.of("--preset", "paper")));
        out.add(cli("noisy-sfw", "logistic", bc, null, Map.of("--preset", "paper")));
        out.add(cli("phased-sgd", "hinge", bc, null, Map.of("--preset", "paper")));
        out.add(cli("prox-sgd", "hinge", bc, null, Map.of()));
        out.add(cli("pg-mirror-descent", "phase-retrieval", pr, 1.0, Map.of("--radius", 1.0, "--p", 1.0)));
        out.add(cli("objective-perturbation", "logistic", bc, 20.0, Map.of("--radius", 20.0)));
        out.add(cli("objective-perturbation-svrg", "logistic", bc, 20.0, Map.of("--radius", 20.0, "--preset", "paper")));
        out.addAll(interceptCases(bc, pr));
        return out;
    }

    /** The CLI defaults since the intercept (on, c = R/2), and the k-class model. */
    private static List<Case> interceptCases(Dataset bc, Dataset pr) {
        Dataset wine = WINE.get();
        List<Case> out = new ArrayList<>();
        out.add(withIntercept("dp-sgd", null, bc, Map.of()));
        out.add(withIntercept("nsgd", null, bc, Map.of()));
        out.add(withIntercept("non-private", null, bc, Map.of()));
        out.add(withIntercept("noisy-frank-wolfe", null, bc, Map.of()));
        out.add(withIntercept("vr-frank-wolfe", null, bc, Map.of()));
        out.add(withIntercept("noisy-sfw", null, bc, Map.of()));
        out.add(withIntercept("phased-sgd", "hinge", bc, Map.of()));
        out.add(withIntercept("prox-sgd", "hinge", bc, Map.of()));
        out.add(withIntercept("pg-mirror-descent", "phase-retrieval", pr, Map.of("--radius", 1.0, "--p", 1.0)));
        out.add(withIntercept("objective-perturbation", null, bc, Map.of("--radius", 20.0)));
        out.add(withIntercept("objective-perturbation-svrg", null, bc, Map.of("--radius", 20.0)));
        Case multi = withIntercept("dp-sgd", null, wine, Map.of());
        out.add(new Case("dp-sgd+multinomial", multi.optimizer(), multi.problem()));
        // the constant check train adds by default (one algorithm per neighbouring relation and family)
        for (String name : List.of("nsgd", "vr-frank-wolfe", "objective-perturbation")) {
            Case c = out.stream().filter(k -> k.name().equals(name + "+intercept")).findFirst().orElseThrow();
            TrainArgs none = new TrainArgs(Map.of(), c.problem().loss().name(), false);
            out.add(new Case(name + "+intercept+check", AlgorithmSpecs.get(name).checked(c.optimizer(), none,
                    c.problem().loss(), c.problem().hasIntercept()), c.problem()));
        }
        return out;
    }

    /** The wine training split (3 classes), from the test resources. */
    static final java.util.function.Supplier<Dataset> WINE = () -> org.dpopt.validation.MulticlassData.split("wine")
            .train();

    /** {@code dpopt train --algorithm name [--loss loss] flags...} with its default intercept. */
    private static Case withIntercept(String name, String loss, Dataset data, Map<String, Object> flags) {
        TrainArgs args = new TrainArgs(given(flags), loss != null ? loss : AlgorithmSpecs.get(name).defaultLoss(), false);
        AlgorithmSpec spec = AlgorithmSpecs.get(name);
        TrainSetup setup = TrainSetup.resolve(new TrainSetup.Flags(loss, spec.defaultLoss(), null, true, null,
                spec.domain(args), null), data, data, "--data");
        return new Case(name + (setup.classCount() > 2 ? "" : "+intercept"), spec.build(args), setup.problem());
    }

    private static Map<Flag<?>, Object> given(Map<String, Object> flags) {
        Map<Flag<?>, Object> given = new java.util.HashMap<>();
        for (Map.Entry<String, Object> e : flags.entrySet()) {
            Flag<?> f = Flag.ALL.stream().filter(x -> x.name().equals(e.getKey())).findFirst().orElseThrow();
            given.put(f, e.getValue());
        }
        return given;
    }

    /** The optimizer and problem `dpopt train --algorithm name --loss loss --no-intercept flags...` builds. */
    private static Case cli(String name, String loss, Dataset data, Double radius, Map<String, Object> flags) {
        TrainArgs args = new TrainArgs(given(flags), loss, false);
        AlgorithmSpec spec = AlgorithmSpecs.get(name);
        return new Case(name, spec.build(args), Problem.of(data, Losses.byName(loss), spec.domain(args)));
    }

    static String run(Case c) {
        PrivacyBudget budget = PrivacyBudget.of(1.0, 1e-5);
        OptimizationResult r = c.optimizer().optimize(c.problem(), "non-private".equals(c.name()) ? null : budget,
                Rngs.seeded(42));
        StringBuilder sb = new StringBuilder();
        sb.append("case ").append(c.name()).append('\n');
        sb.append("epsilon ").append(Double.toHexString(r.privacy().epsilon())).append('\n');
        sb.append("ledger ").append(r.ledger().describe()).append('\n');
        sb.append("solution");
        for (double v : r.solution().data) {
            sb.append(' ').append(Double.toHexString(v));
        }
        sb.append('\n');
        return sb.toString();
    }

    private static Map<String, String> parse(String text) {
        Map<String, String> m = new LinkedHashMap<>();
        String[] blocks = text.split("(?m)^(?=case )");
        for (String b : blocks) {
            if (b.isBlank()) {
                continue;
            }
            m.put(b.substring(5, b.indexOf('\n')), b);
        }
        return m;
    }

    @Test
    void seededRunsReproduceTheRecordedModelsAndReports() throws IOException {
        String target = System.getProperty("golden.write");
        List<Case> cs = cases();
        if (target != null) {
            StringBuilder sb = new StringBuilder();
            for (Case c : cs) {
                sb.append(run(c));
            }
            Files.writeString(Path.of(target), sb.toString());
        }
        String text;
        try (InputStream in = GoldenRunsTest.class.getResourceAsStream("/golden/runs.txt")) {
            assertNotNull(in, "golden/runs.txt on the test class path");
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Map<String, String> expected = parse(text);
        assertEquals(cs.size(), expected.size(), "one recorded run per case");
        for (Case c : cs) {
            assertEquals(expected.get(c.name()), run(c), "seeded run of " + c.name());
        }
    }
}
