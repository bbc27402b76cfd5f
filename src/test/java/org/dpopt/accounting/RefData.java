package org.dpopt.accounting;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;

/** Reader for the shared reference tables in /work/shared/refdata/accounting (see its README). */
final class RefData {
    private RefData() {
    }

    static final Path DIR = Path.of(System.getProperty("dpopt.refdata", "/work/shared/refdata"), "accounting");

    /** Rows as column-name → raw string maps; skips the test if the tables are not present. */
    static List<Map<String, String>> read(String file) {
        Path p = DIR.resolve(file);
        Assumptions.assumeTrue(Files.isReadable(p), "reference table " + p + " not available");
        try {
            List<String> lines = Files.readAllLines(p);
            String[] header = lines.get(0).split(",");
            List<Map<String, String>> rows = new ArrayList<>();
            for (String line : lines.subList(1, lines.size())) {
                if (line.isBlank()) {
                    continue;
                }
                List<String> cells = splitCsv(line);
                Map<String, String> row = new HashMap<>();
                for (int i = 0; i < header.length; i++) {
                    row.put(header[i], i < cells.size() ? cells.get(i) : "");
                }
                rows.add(row);
            }
            return rows;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static List<String> splitCsv(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (char c : line.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                out.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        out.add(cur.toString());
        return out;
    }

    static double num(Map<String, String> row, String col) {
        String v = row.get(col);
        return v == null || v.isBlank() ? Double.NaN : Double.parseDouble(v);
    }
}
