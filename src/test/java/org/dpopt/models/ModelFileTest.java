package org.dpopt.models;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.dpopt.data.BundledDatasets;
import org.dpopt.data.Splits;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The model file: round trip, every field, null for ∞/NaN, and refusal of damaged or foreign files. */
class ModelFileTest {

    static Model binary;
    static Splits.Split split;

    @BeforeAll
    static void fit() {
        split = BundledDatasets.split("breast_cancer");
        binary = DpLogisticRegression.builder().epsilon(1).delta(1e-5).epochs(3).seed(11).build().fit(split.train());
    }

    @Test
    void saveAndLoadReproduceTheModelExactly(@TempDir Path dir) {
        Path f = dir.resolve("m.json");
        binary.save(f);
        Model back = Model.load(f);
        assertEquals(binary.toJson(), back.toJson());
        assertArrayEquals(binary.weights()[0], back.weights()[0], 0);
        assertArrayEquals(binary.intercepts(), back.intercepts(), 0);
        assertEquals(binary.parameters(), back.parameters());
        assertEquals(binary.privacy(), back.privacy());
        assertEquals(binary.accuracy(split.test()), back.accuracy(split.test()), 0);
        assertArrayEquals(binary.predict(split.test()), back.predict(split.test()), 0);
    }

    @Test
    void theFileListsEveryDocumentedField() {
        Object parsed = JsonText.parse(binary.toJson(), "m");
        assertTrue(parsed instanceof Map<?, ?>);
        Map<?, ?> m = (Map<?, ?>) parsed;
        assertEquals(List.of("format", "format_version", "dpopt_version", "kind", "loss", "link", "classes", "dimension",
                "row_norm_bound", "fit_intercept", "intercept_scale", "weights", "intercept", "algorithm", "parameters",
                "privacy", "noise", "private", "note"), List.copyOf(m.keySet()));
        assertEquals("binary", m.get("kind"));
        assertEquals("logit", m.get("link"));
        assertEquals(List.of(0L, 1L), m.get("classes"));
        assertEquals(30L, m.get("dimension"));
        assertEquals(true, m.get("fit_intercept"));
        assertEquals(false, m.get("private"), "a seeded model is not private");
        assertTrue(((String) m.get("note")).contains("seeded runs are not private"), (String) m.get("note"));
        Map<?, ?> p = (Map<?, ?>) m.get("privacy");
        assertEquals(List.of("epsilon", "epsilon_lower", "delta", "accountant", "relation", "bound", "event", "notes"),
                List.copyOf(p.keySet()));
        assertTrue((Double) p.get("epsilon") <= 1.0);
        assertEquals("ADD_OR_REMOVE_ONE", p.get("relation"));
        assertTrue(((String) p.get("event")).contains("PoissonSampled"));
        assertFalse(binary.toJson().contains("Infinity") || binary.toJson().contains("NaN"));
    }

    @Test
    void infiniteEpsilonIsNullWithAFlag(@TempDir Path dir) {
        Model np = DpLogisticRegression.builder().epsilon(1).delta(1e-5)
                .optimizer(org.dpopt.optim.sgd.NonPrivateSgd.builder().epochs(2).build()).seed(1).build()
                .fit(split.train());
        String json = np.toJson();
        assertTrue(json.contains("\"epsilon\": null") && json.contains("\"epsilon_infinite\": true"), json);
        assertFalse(json.contains("Infinity") || json.contains("NaN"), json);
        Path f = dir.resolve("np.json");
        np.save(f);
        Model back = Model.load(f);
        assertEquals(Double.POSITIVE_INFINITY, back.privacy().epsilon(), 0);
        assertFalse(back.privacy().isPrivate());
        assertTrue(back.toJson().contains("NOT PRIVATE: trained without a privacy guarantee"));
    }

    private static String edit(String json, String from, String to) {
        assertTrue(json.contains(from), from);
        return json.replace(from, to);
    }

    @Test
    void damagedOrForeignFilesAreRefusedNamingTheField() {
        String ok = binary.toJson();
        String[][] cases = {
            {"\"format\": \"dpopt-model\"", "\"format\": \"other\"", "\"format\" of model JSON must be \"dpopt-model\""},
            {"\"format_version\": 1", "\"format_version\": 2", "\"format_version\" of model JSON must be between 1 and 1"},
            {"\"dimension\": 30", "\"dimension\": 29", "\"weights[0]\" of model JSON must be of length \"dimension\" = 29"},
            {"\"kind\": \"binary\"", "\"kind\": \"ordinal\"", "\"kind\" of model JSON must be binary, multinomial or regression"},
            {"\"link\": \"logit\"", "\"link\": \"softmax\"", "\"link\" of model JSON must be \"logit\""},
            {"\"private\": false", "\"private\": true", "\"private\" of model JSON must be false"},
            {"\"classes\": [0, 1]", "\"classes\": [0, 2]", "\"classes\" of model JSON must be [0, 1] or [-1, 1]"},
            {"\"fit_intercept\": true", "\"fit_intercept\": false", "\"intercept_scale\" of model JSON must be 0 when"},
            {"\"noise\": ", "\"noise_mode\": ", "\"noise\" of model JSON must be present but was missing"},
            {"\"weights\": [", "\"weights\": [[\"a\"], ", "\"weights[0][0]\" of model JSON must be a number but was \"a\""}};
        for (String[] c : cases) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Model.fromJson(edit(ok, c[0], c[1])), c[1]);
            assertTrue(e.getMessage().startsWith(c[2]), c[1] + " -> " + e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> Model.fromJson(ok.substring(0, ok.length() / 2)));
        assertThrows(IllegalArgumentException.class, () -> Model.fromJson("[1, 2]"));
        assertThrows(IllegalArgumentException.class, () -> Model.fromJson(ok + "x"));
        assertThrows(IllegalArgumentException.class, () -> Model.load(Path.of("no/such/model.json")));
    }

    @Test
    void jsonTextReadsTheStandardGrammar() {
        Object v = JsonText.parse(" {\"a\": [1, -2.5e-3, true, false, null], \"b\": \"x\\\"\\u00e9\\n\"} ", "t");
        Map<?, ?> m = (Map<?, ?>) v;
        assertEquals(List.of(1L, -2.5e-3, true, false), ((List<?>) m.get("a")).subList(0, 4));
        assertEquals("x\"é\n", m.get("b"));
        for (String bad : new String[] {"{\"a\": 01}", "{\"a\": 1,}", "{'a': 1}", "[1 2]", "{\"a\": 1, \"a\": 2}",
            "\"tab\there\"", "1e999", "-", "{\"a\"}"}) {
            assertThrows(IllegalArgumentException.class, () -> JsonText.parse(bad, "t"), bad);
        }
        assertEquals(List.of(List.of(1.5, 2.0)), JsonText.parse(JsonText.write(List.of(new double[] {1.5, 2})), "t"));
    }

    @Test
    void saveIsAtomicAndLeavesNoTemporaryFile(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("m.json");
        Files.writeString(f, "old");
        binary.save(f);
        assertEquals(binary.toJson(), Files.readString(f));
        try (var s = Files.list(dir)) {
            assertEquals(1, s.count(), "no temporary file left behind");
        }
    }
}
