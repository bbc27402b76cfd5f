package org.dpopt.budget;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.linalg.Checks;

/**
 * The text of a budget file: a header, one line per release, and a SHA-256 checksum of everything
 * before it, so that a truncated, corrupted or hand-edited file is refused rather than read as a smaller
 * spend. (The checksum detects accidents and edits; it is not a secret-keyed signature, so it does not
 * stop someone who recomputes it on purpose: protect the file by its permissions.)
 *
 * <pre>
 * # comment lines
 * format dpopt-budget 1
 * total_epsilon 1.0
 * total_delta 1.0E-5
 * relation ADD_OR_REMOVE_ONE
 * release TIME\tEPSILON\tDELTA\tACCOUNTANT\tEVENT\tWHAT
 * failure_probability P          (only after a release that has one)
 * checksum sha256 HEX
 * </pre>
 */
final class LedgerText {
    static final String FORMAT = "format dpopt-budget 1";
    private static final String CHECKSUM = "checksum sha256 ";
    private static final String FAILURE = "failure_probability ";

    private LedgerText() {
    }

    static String write(BudgetLedger l) {
        StringBuilder sb = new StringBuilder();
        sb.append("# dpopt privacy budget: every release on one dataset. Do not edit (a checksum protects it).\n");
        sb.append(FORMAT).append('\n');
        sb.append("total_epsilon ").append(l.totalEpsilon()).append('\n');
        sb.append("total_delta ").append(l.totalDelta()).append('\n');
        sb.append("relation ").append(l.relation()).append('\n');
        for (BudgetLedger.Entry e : l.entries()) {
            sb.append("release ").append(e.time()).append('\t').append(e.epsilon()).append('\t').append(e.delta())
                    .append('\t').append(e.accountant()).append('\t').append(EventCodec.encode(e.event()))
                    .append('\t').append(e.release()).append('\n');
            if (e.failureProbability() > 0) {
                sb.append(FAILURE).append(e.failureProbability()).append('\n');
            }
        }
        String body = sb.toString();
        return body + CHECKSUM + sha256(body) + "\n";
    }

    /**
     * Reads a ledger.
     *
     * @param source the file's name in messages
     * @throws IllegalArgumentException if the text is not an intact budget file
     */
    static BudgetLedger read(String text, String source) {
        int at = text.lastIndexOf(CHECKSUM);
        if (text.isEmpty() || at < 0 || (at > 0 && text.charAt(at - 1) != '\n')) {
            throw Checks.fail("budget file " + source, "a dpopt budget file ending in its checksum line",
                    text.isEmpty() ? "empty" : "without one");
        }
        String body = text.substring(0, at);
        String sum = text.substring(at + CHECKSUM.length()).strip();
        if (!sum.equals(sha256(body))) {
            throw Checks.fail("budget file " + source, "unmodified (its checksum must match its content)",
                    "modified or corrupted");
        }
        List<String> lines = new ArrayList<>();
        for (String line : body.split("\n", -1)) {
            if (!line.isEmpty() && !line.startsWith("#")) {
                lines.add(line);
            }
        }
        return parse(lines, source);
    }

    private static BudgetLedger parse(List<String> lines, String source) {
        if (lines.size() < 4 || !FORMAT.equals(lines.get(0))) {
            throw Checks.fail("budget file " + source, "in the format '" + FORMAT + "'",
                    lines.isEmpty() ? "empty" : lines.get(0));
        }
        double eps = number(value(lines.get(1), "total_epsilon", source), source);
        double delta = number(value(lines.get(2), "total_delta", source), source);
        NeighboringRelation rel = relation(value(lines.get(3), "relation", source), source);
        List<BudgetLedger.Entry> entries = new ArrayList<>();
        for (int k = 4; k < lines.size(); k++) {
            BudgetLedger.Entry e = entry(value(lines.get(k), "release", source), source);
            if (k + 1 < lines.size() && lines.get(k + 1).startsWith(FAILURE)) {
                k++;
                double p = number(lines.get(k).substring(FAILURE.length()), source);
                e = new BudgetLedger.Entry(e.time(), e.release(), e.epsilon(), e.delta(), e.accountant(), e.event(), p);
            }
            entries.add(e);
        }
        return BudgetLedger.of(eps, delta, rel, entries);
    }

    private static BudgetLedger.Entry entry(String v, String source) {
        String[] f = v.split("\t", 6);
        if (f.length != 6) {
            throw Checks.fail("release line of budget file " + source, "six tab-separated fields", f.length);
        }
        Instant time;
        try {
            time = Instant.parse(f[0]);
        } catch (DateTimeParseException e) {
            throw Checks.fail("release time in budget file " + source, "an ISO-8601 instant", f[0]);
        }
        return new BudgetLedger.Entry(time, f[5], number(f[1], source), number(f[2], source), f[3],
                EventCodec.decode(f[4]));
    }

    private static String value(String line, String key, String source) {
        if (!line.startsWith(key + " ")) {
            throw Checks.fail("line of budget file " + source, "'" + key + " …'", line);
        }
        return line.substring(key.length() + 1);
    }

    private static double number(String s, String source) {
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            throw Checks.fail("number in budget file " + source, "a decimal number", s);
        }
    }

    private static NeighboringRelation relation(String s, String source) {
        for (NeighboringRelation r : NeighboringRelation.values()) {
            if (r.name().equals(s)) {
                return r;
            }
        }
        throw Checks.fail("relation in budget file " + source, "one of " + List.of(NeighboringRelation.values()), s);
    }

    static String sha256(String text) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(md.digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
