package org.dpopt.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.dpopt.bench.TrainRunner;

/**
 * {@code dpopt train} in this JVM for the benchmark suites: a fresh command line per run (so no option
 * state carries over), {@code --json --quiet} appended, stdout parsed, stderr kept for failures only.
 */
final class CliTrainRunner implements TrainRunner {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Override
    public List<String> classifiers() {
        return AlgorithmSpecs.all().stream().filter(AlgorithmSpec::isPrivate).map(AlgorithmSpec::name).toList();
    }

    @Override
    @SuppressWarnings("unchecked")
    public Map<String, Object> train(List<String> args) {
        List<String> all = new ArrayList<>();
        all.add("train");
        all.addAll(args);
        all.add("--json");
        all.add("--quiet");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(all.toArray(new String[0]));
        if (code != 0) {
            throw new IllegalStateException("dpopt " + String.join(" ", all) + " exited with " + code + ": "
                    + Main.oneLine(err.toString()));
        }
        try {
            return MAPPER.readValue(out.toString(), Map.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("dpopt train must print one JSON object but printed " + out, e);
        }
    }
}
