package org.dpopt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.dpopt.sampling.Samplers;
import org.junit.jupiter.api.Test;

/**
 * Report consistency of {@code dpopt account}: what "epsilon" is under each bound, infinities as null
 * plus a companion key, stable key order, --epochs equivalent to the step count ceil(E n / B), and the
 * privacy statement. Deterministic.
 */
class AccountReportCliTest {

    private static List<String> keys(JsonNode j) {
        List<String> k = new ArrayList<>();
        for (Iterator<String> it = j.fieldNames(); it.hasNext();) {
            k.add(it.next());
        }
        return k;
    }

    @Test
    void lowerBoundSaysWhatEpsilonIs() throws Exception {
        JsonNode up = CliTest.json(CliTest.run("account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5",
                "--sampler", "shuffle-dynamic", "--dataset-size", "1000", "--batch-size", "10", "--epochs", "2", "--json"));
        JsonNode low = CliTest.json(CliTest.run("account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5",
                "--sampler", "shuffle-dynamic", "--dataset-size", "1000", "--batch-size", "10", "--epochs", "2", "--bound",
                "lower", "--json"));
        assertEquals("upper", up.get("bound").asText());
        assertEquals(AccountCommand.UPPER_MEANING, up.get("epsilon_meaning").asText());
        assertEquals("lower", low.get("bound").asText());
        assertEquals(AccountCommand.LOWER_MEANING, low.get("epsilon_meaning").asText());
        // the lower run's epsilon is the upper run's epsilon_lower, and its epsilon_upper the guarantee
        assertEquals(up.get("epsilon_lower").asDouble(), low.get("epsilon").asDouble(), 0.0);
        assertEquals(up.get("epsilon").asDouble(), low.get("epsilon_upper").asDouble(), 0.0);
        assertTrue(low.get("epsilon").asDouble() <= low.get("epsilon_upper").asDouble());
        // no note may call "epsilon" the upper bound in the lower-bound output
        for (JsonNode n : low.get("notes")) {
            assertFalse(n.asText().contains("epsilon is the deterministic"), n.asText());
        }
        assertTrue(low.get("notes").get(0).asText().startsWith("epsilon is the optimistic lower bound"));
    }

    @Test
    void infiniteEpsilonIsNullWithACompanionKeyInJsonAndWordsInText() throws Exception {
        String[] args = {"account", "epsilon", "--noise-multiplier", "1e-300", "--delta", "0.5", "--sampling-rate", "0.5",
            "--steps", "3"};
        CliTest.Run r = CliTest.run(concat(args, "--json"));
        assertFalse(r.out().contains("Infinity") || r.out().contains("NaN"), r.out());
        JsonNode j = CliTest.json(r);
        assertTrue(j.get("epsilon").isNull());
        assertTrue(j.get("epsilon_infinite").asBoolean());
        assertEquals(List.of("epsilon", "epsilon_infinite", "epsilon_meaning"), keys(j).subList(0, 3));
        CliTest.Run text = CliTest.run(args);
        assertEquals(0, text.code(), text.err());
        assertFalse(text.out().contains("Infinity") || text.out().contains("NaN"), text.out());
        assertTrue(text.out().contains("infinite (no finite guarantee)"), text.out());
    }

    @Test
    void keysComeInAStableOrder() throws Exception {
        String[] args = {"account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", "--sampling-rate", "0.01",
            "--steps", "100", "--json"};
        List<String> first = keys(CliTest.json(CliTest.run(args)));
        assertEquals(List.of("epsilon", "epsilon_meaning", "epsilon_lower", "delta", "noise_multiplier", "bound", "accountant",
                "sampler", "relation", "steps", "sampling_rate", "notes"), first);
        assertEquals(first, keys(CliTest.json(CliTest.run(args))));
    }

    @Test
    void epochsGiveTheStepsOfTheOneDefinition() throws Exception {
        // n = 1000, B = 30, E = 2.5: T = ceil(2.5 * 1000 / 30) = 84
        long t = Samplers.epochSteps(2.5, 1000, 30);
        assertEquals(84, t);
        JsonNode byEpochs = CliTest.json(CliTest.run("account", "epsilon", "--noise-multiplier", "1.2", "--delta", "1e-5",
                "--dataset-size", "1000", "--batch-size", "30", "--epochs", "2.5", "--json"));
        JsonNode bySteps = CliTest.json(CliTest.run("account", "epsilon", "--noise-multiplier", "1.2", "--delta", "1e-5",
                "--dataset-size", "1000", "--batch-size", "30", "--steps", "84", "--json"));
        assertEquals(84, byEpochs.get("steps").asLong());
        assertEquals(bySteps.get("epsilon").asDouble(), byEpochs.get("epsilon").asDouble(), 0.0);
        assertEquals(2.5, byEpochs.get("epochs").asDouble(), 0.0);
        // fixed partitions: E whole epochs of n/B steps
        JsonNode det = CliTest.json(CliTest.run("account", "epsilon", "--noise-multiplier", "2", "--delta", "1e-5",
                "--sampler", "deterministic", "--dataset-size", "1000", "--batch-size", "10", "--epochs", "3", "--json"));
        assertEquals(300, det.get("steps").asLong());
    }

    @Test
    void statementCarriesBothAccountantsReplaceOneAndAssumptions() throws Exception {
        JsonNode s = CliTest.json(CliTest.run("account", "statement", "--dataset-size", "60000", "--batch-size", "256",
                "--epochs", "30", "--noise-multiplier", "1.1", "--json"));
        double eps = s.get("epsilon").asDouble();
        double rdp = s.get("epsilon_rdp").asDouble();
        double low = s.get("epsilon_lower").asDouble();
        assertTrue(low <= eps && eps <= rdp, low + " " + eps + " " + rdp);
        assertEquals(1e-5, s.get("delta").asDouble(), 0.0); // the largest power of ten below 1/60000
        assertTrue(s.get("delta_is_default").asBoolean());
        // group privacy: at the same delta, replace-one epsilon is at least twice the add/remove one
        double rep = s.get("epsilon_replace_one").asDouble();
        assertTrue(rep >= 2 * eps && rep < 2.5 * eps, "replace-one " + rep);
        assertEquals(s.get("delta").asDouble(), s.get("delta_replace_one").asDouble(), 0.0);
        assertEquals(7032, s.get("steps").asLong());
        String text = s.get("statement").asText();
        assertTrue(text.contains("Poisson") && text.contains("public") && text.contains("hyperparameter tuning"), text);
        assertTrue(s.get("assumptions").size() >= 4 && s.get("not_covered").size() >= 3);
        // a fixed-order sampler reports its own bound and what Poisson would (not) give
        JsonNode d = CliTest.json(CliTest.run("account", "statement", "--dataset-size", "1000", "--batch-size", "10",
                "--epochs", "2", "--noise-multiplier", "1", "--sampler", "shuffle-dynamic", "--delta", "1e-6", "--json"));
        assertEquals("ablq", d.get("accountant").asText());
        assertTrue(d.get("epsilon_if_poisson").asDouble() < d.get("epsilon").asDouble());
        assertTrue(d.get("epsilon_if_poisson_meaning").asText().contains("does NOT apply"));
    }

    private static String[] concat(String[] a, String b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + 1);
        out[a.length] = b;
        return out;
    }
}
