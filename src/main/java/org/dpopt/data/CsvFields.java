package org.dpopt.data;

/**
 * The numeric fields of one CSV line, split on commas and parsed exactly as
 * {@code line.split(",", -1)} followed by {@code Double.parseDouble(field.strip())} on each field
 * would, without a substring per field for the fields {@code 0} and {@code 1} (most of a one-hot
 * encoded table). Shared by the in-memory reader and the Spark row parser.
 */
public final class CsvFields {
    private CsvFields() {
    }

    /** The number of fields of a line: its commas plus one (empty fields count). */
    public static int count(String line) {
        int c = 1;
        for (int i = line.indexOf(','); i >= 0; i = line.indexOf(',', i + 1)) {
            c++;
        }
        return c;
    }

    /**
     * Parses the fields of {@code line} into {@code out} ({@code out.length == count(line)}); false at the
     * first field that is not a number (the later entries of {@code out} are then unspecified).
     * Modified: out.
     */
    public static boolean parse(String line, double[] out) {
        int start = 0;
        for (int k = 0; k < out.length; k++) {
            int end = line.indexOf(',', start);
            if (end < 0) {
                end = line.length();
            }
            char c = end - start == 1 ? line.charAt(start) : ' ';
            if (c == '0') {
                out[k] = 0.0;
            } else if (c == '1') {
                out[k] = 1.0;
            } else {
                try {
                    out[k] = Double.parseDouble(line.substring(start, end).strip());
                } catch (NumberFormatException e) {
                    return false;
                }
            }
            start = end + 1;
        }
        return true;
    }
}
