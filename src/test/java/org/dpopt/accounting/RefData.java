package org.dpopt.accounting;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reader for the reference tables vendored in {@code src/test/resources/accounting/} (provenance in
 * the README there). A missing table is a test failure, never a skip.
 */
final class RefData {
    private RefData() {
    }

    /** Rows as column-name → raw string maps. */
    static List<Map<String, String>> read(String file) {
        String resource = "/accounting/" + file;
        try (InputStream in = RefData.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("reference table " + resource + " is missing from the test resources");
            }
            String[] lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\r?\n");
            String[] header = lines[0].split(",");
            List<Map<String, String>> rows = new ArrayList<>();
            for (int k = 1; k < lines.length; k++) {
                if (lines[k].isBlank()) {
                    continue;
                }
                List<String> cells = splitCsv(lines[k]);
                Map<String, String> row = new HashMap<>();
                for (int i = 0; i < header.length; i++) {
                    row.put(header[i], i < cells.size() ? cells.get(i) : "");
                }
                rows.add(row);
            }
            return rows;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
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
