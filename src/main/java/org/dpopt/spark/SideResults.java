package org.dpopt.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dpopt.linalg.Checks;

/**
 * The measurements of one side of the Spark benchmark (the in-memory engine or the Spark engine), so that
 * the two sides can run in separate processes one after the other and be put side by side afterwards.
 * Stored as a long-format CSV, {@code side,n,d,parts,quantity,key,value}: one line per number (an epoch
 * time at batch size {@code key}, a full-pass time at repetition {@code key}, a process figure with an
 * empty key).
 */
final class SideResults {
    static final String HEADER = "side,n,d,parts,quantity,key,value";

    final String side;
    final long n;
    final int d;
    final int parts;
    private final Map<String, String> values = new LinkedHashMap<>();

    SideResults(String side, long n, int d, int parts) {
        this.side = side;
        this.n = n;
        this.d = d;
        this.parts = parts;
    }

    /** The file a side's results go to in the output directory. */
    static Path file(Path out, String side) {
        return out.resolve("spark-side-" + side + ".csv");
    }

    void put(String quantity, Object key, Object value) {
        values.put(quantity + "," + key, String.valueOf(value));
    }

    boolean has(String quantity, Object key) {
        return values.containsKey(quantity + "," + key);
    }

    double get(String quantity, Object key) {
        String v = values.get(quantity + "," + key);
        return v == null ? Double.NaN : Double.parseDouble(v);
    }

    String text(String quantity, Object key) {
        return values.get(quantity + "," + key);
    }

    /** The keys recorded for a quantity, in the order they were put. */
    List<String> keys(String quantity) {
        List<String> k = new ArrayList<>();
        for (String qk : values.keySet()) {
            if (qk.startsWith(quantity + ",")) {
                k.add(qk.substring(quantity.length() + 1));
            }
        }
        return k;
    }

    /** True when other describes the same rows (n, d and block count). */
    boolean sameRows(SideResults other) {
        return n == other.n && d == other.d && parts == other.parts;
    }

    void write(Path out) throws IOException {
        StringBuilder sb = new StringBuilder(HEADER).append('\n');
        values.forEach((qk, v) -> sb.append(side).append(',').append(n).append(',').append(d).append(',')
                .append(parts).append(',').append(qk).append(',').append(v.replace(',', ';')).append('\n'));
        Files.writeString(file(out, side), sb.toString());
    }

    /** The results of a side from out, or null when that side has not been run there. */
    static SideResults read(Path out, String side) throws IOException {
        Path f = file(out, side);
        if (!Files.isRegularFile(f)) {
            return null;
        }
        List<String> lines = Files.readAllLines(f);
        if (lines.isEmpty() || !lines.get(0).equals(HEADER)) {
            throw Checks.fail(f.toString(), "a side file with the header " + HEADER, lines.isEmpty() ? "empty"
                    : lines.get(0));
        }
        SideResults r = null;
        for (String line : lines.subList(1, lines.size())) {
            String[] c = line.split(",", 7);
            if (c.length != 7 || !c[0].equals(side)) {
                throw Checks.fail(f + " line", "side,n,d,parts,quantity,key,value of side " + side, line);
            }
            if (r == null) {
                r = new SideResults(side, Long.parseLong(c[1]), Integer.parseInt(c[2]), Integer.parseInt(c[3]));
            }
            r.values.put(c[4] + "," + c[5], c[6]);
        }
        return r;
    }
}
